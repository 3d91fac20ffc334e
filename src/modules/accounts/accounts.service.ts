/**
 * Accounts: registration, password sign-in with throttling, legal acceptance, password reset,
 * development sign-in, identity-provider sign-in, /auth/me and account deletion. Doors call one
 * method each and turn the returned session token into the session cookie.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { type AccountCaller, type RequestContext } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import type { CounterStore, WindowSpec } from '../usage/counter-store.js';
import type { UsageService } from '../usage/usage.service.js';
import { requireAccount } from '../usage/usage.service.js';
import {
  deleteAccountBodySchema,
  devLoginBodySchema,
  emailVerificationConfirmSchema,
  legalAcceptanceBodySchema,
  loginBodySchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerBodySchema,
  type MeRecord,
  type UserRecord,
} from './account.schema.js';
import type { Mailer } from './mailer.js';
import {
  consumeOneTimeToken,
  issueOneTimeToken,
  RESET_TOKEN_TTL_MS,
  VERIFY_EMAIL_TOKEN_TTL_MS,
} from './one-time-tokens.js';
import { hashPassword, timingDummyHash, verifyPassword } from './passwords.js';
import { LEGAL_TOKEN_TTL_SECONDS, SESSION_TTL_SECONDS, type TokenSigner } from './tokens.js';
import { UserEntity, type User } from './user.entity.js';

export { RESET_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS };

/** A new session for the door to put in the cookie. */
export interface IssuedSession {
  token: string;
  maxAgeSeconds: number;
}

/** The outcome of a sign-in: a session, or (terms not accepted) a legal-acceptance token. */
export type SignInResult =
  | { kind: 'session'; user: UserRecord; session: IssuedSession }
  | { kind: 'legal_acceptance_required'; legal_acceptance_token: string; terms_version: string };

/** A verified identity from an identity provider. */
export interface ProviderIdentity {
  provider: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

export interface AccountsSettings {
  adminEmails: string[];
  termsVersion: string;
  devLogin: boolean;
  baseUrl: string;
}

/** Failed sign-ins per e-mail and per IP over 15 minutes before 429. */
const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_FAILURES_PER_EMAIL = 5;
export const LOGIN_FAILURES_PER_IP = 20;
export const INVALID_CREDENTIALS = 'Invalid email or password';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AccountsService {
  constructor(
    private readonly deps: {
      orm: MikroORM;
      tokens: TokenSigner;
      mailer: Mailer;
      counters: CounterStore;
      usage: UsageService;
      logger: Logger;
      settings: AccountsSettings;
    },
  ) {}

  /** Creates a password account; 409 when the e-mail (any case, any sign-in method) exists. */
  async register(ctx: RequestContext, input: unknown): Promise<UserRecord> {
    const body = parseInput(registerBodySchema, input);
    const passwordHash = await hashPassword(body.password);
    const em = this.deps.orm.em.fork();
    const accepted = body.accept_terms && body.acknowledge_privacy;
    const user = em.create(UserEntity, {
      id: randomUUID(),
      email: body.email,
      email_lower: body.email.toLowerCase(),
      email_verified: false,
      name: body.name ?? null,
      password_hash: passwordHash,
      plan: 'free',
      terms_version: accepted ? this.deps.settings.termsVersion : null,
      legal_accepted_at: accepted ? new Date() : null,
      legal_accepted_ip: accepted ? ctx.caller.ip : null,
      created_at: new Date(),
    });
    try {
      await em.persist(user).flush();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('conflict', 'An account with this email already exists');
      throw error;
    }
    return this.userRecord(user);
  }

  /**
   * Password sign-in. Wrong e-mail and wrong password give the same 401 after the same argon2
   * work; failures per e-mail and per IP are throttled (429 with Retry-After).
   */
  async login(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    const body = parseInput(loginBodySchema, input);
    const email = body.email.trim().toLowerCase();
    const now = Date.now();
    const throttles: [string, WindowSpec][] = [
      [`login-email:${email}`, loginWindow(LOGIN_FAILURES_PER_EMAIL)],
      [`login-ip:${ctx.caller.ip ?? 'unknown'}`, loginWindow(LOGIN_FAILURES_PER_IP)],
    ];
    for (const [subject, window] of throttles) {
      const peek = await this.deps.counters.consume(subject, [window], { now, enforce: true, cost: 0 });
      if (!peek.allowed) {
        throw new DomainError('rate_limited', 'Too many failed sign-in attempts; try again later', {
          retryAfterSeconds: Math.ceil(peek.retryAfterMs / 1000),
        });
      }
    }
    const em = this.deps.orm.em.fork();
    const user = await em.findOne(UserEntity, { email_lower: email });
    const ok = await verifyPassword(user?.password_hash ?? (await timingDummyHash()), body.password);
    if (!user || !user.password_hash || !ok) {
      for (const [subject, window] of throttles) {
        await this.deps.counters.consume(subject, [window], { now, enforce: false, cost: 1 });
      }
      throw new DomainError('unauthorized', INVALID_CREDENTIALS);
    }
    return this.signIn(user);
  }

  /** Records the current terms' acceptance once (timestamp, version, IP) and exchanges the token for a session. */
  async acceptLegal(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    const body = parseInput(legalAcceptanceBodySchema, input);
    const invalid = () => new DomainError('unauthorized', 'Invalid or expired legal acceptance token');
    const verified = await this.deps.tokens.verify('legal_acceptance', body.legal_acceptance_token);
    if (!verified || !verified.jti) throw invalid();
    const jti = verified.jti;
    const user = await this.deps.orm.em.fork().transactional(async (tx) => {
      // single use: the exchange consumes the token's id (stored when the token was issued)
      const owner = await consumeOneTimeToken(tx, 'legal_acceptance', jti);
      if (owner !== verified.userId) throw invalid();
      const found = await tx.findOne(UserEntity, { id: verified.userId });
      if (!found) throw invalid();
      if (found.terms_version !== this.deps.settings.termsVersion) {
        found.terms_version = this.deps.settings.termsVersion;
        found.legal_accepted_at = new Date();
        found.legal_accepted_ip = ctx.caller.ip;
        await tx.flush();
      }
      return found;
    });
    return this.signIn(user);
  }

  /** Always succeeds (no account enumeration); mails a one-time token valid one hour when the account exists. */
  async requestPasswordReset(_ctx: RequestContext, input: unknown): Promise<{ detail: string }> {
    const body = parseInput(passwordResetRequestSchema, input);
    const answer = { detail: 'If an account exists for this email, a password reset link has been sent.' };
    const em = this.deps.orm.em.fork();
    const user = await em.findOne(UserEntity, { email_lower: body.email.trim().toLowerCase() });
    if (!user) return answer;
    const token = await issueOneTimeToken(em, user.id, 'password_reset', RESET_TOKEN_TTL_MS);
    const link = `${this.deps.settings.baseUrl}/reset-password?token=${token}`;
    try {
      await this.deps.mailer.send({
        to: user.email,
        subject: 'Reset your password',
        text:
          `Someone asked to reset the password of your account.\n\n` +
          `To choose a new password, open this link within one hour:\n${link}\n\n` +
          `Reset token: ${token}\n\nIf it was not you, ignore this e-mail.`,
      });
    } catch (error) {
      // the answer must not reveal that the account exists, so the failure is only logged
      this.deps.logger.error('password reset: could not send the e-mail', error);
    }
    return answer;
  }

  /** Consumes a reset token once, sets the password, ends every other session and starts a new one. */
  async confirmPasswordReset(_ctx: RequestContext, input: unknown): Promise<{ detail: string; session: IssuedSession }> {
    const body = parseInput(passwordResetConfirmSchema, input);
    const passwordHash = await hashPassword(body.password);
    const em = this.deps.orm.em.fork();
    const userId = await em.transactional(async (tx) => {
      const id = await consumeOneTimeToken(tx, 'password_reset', body.token);
      if (!id) throw new DomainError('bad_request', 'Invalid or expired password reset token');
      await tx
        .getConnection()
        .execute(
          'update app_user set password_hash = ?, sessions_valid_after = ? where id = ?',
          [passwordHash, new Date(), id],
          'run',
          tx.getTransactionContext(),
        );
      return id;
    });
    const session = await this.issueSession(userId);
    return { detail: 'Password updated; other sessions have been signed out.', session };
  }

  /**
   * Mails the signed-in account a one-time token valid 24 hours that proves it owns its e-mail
   * (stored hashed, like password-reset tokens). An already verified account gets no mail.
   */
  async requestEmailVerification(ctx: RequestContext): Promise<{ detail: string }> {
    const caller = requireAccount(ctx);
    const em = this.deps.orm.em.fork();
    const user = await em.findOne(UserEntity, { id: caller.userId });
    if (!user) throw new DomainError('unauthorized', 'Account no longer exists');
    if (user.email_verified) return { detail: 'This email address is already verified.' };
    const token = await issueOneTimeToken(em, user.id, 'verify_email', VERIFY_EMAIL_TOKEN_TTL_MS);
    const link = `${this.deps.settings.baseUrl}/verify-email?token=${token}`;
    try {
      await this.deps.mailer.send({
        to: user.email,
        subject: 'Verify your email address',
        text:
          `To confirm that this address belongs to your account, open this link within 24 hours:\n${link}\n\n` +
          `Verification token: ${token}\n\nIf you did not create an account, ignore this e-mail.`,
      });
    } catch (error) {
      this.deps.logger.error('email verification: could not send the e-mail', error);
      throw new DomainError('unavailable', 'The verification e-mail could not be sent; try again later');
    }
    return { detail: 'A verification link has been sent to your email address.' };
  }

  /** Consumes a verification token once and marks its account's e-mail verified (no session needed). */
  async confirmEmailVerification(_ctx: RequestContext, input: unknown): Promise<{ detail: string }> {
    const body = parseInput(emailVerificationConfirmSchema, input);
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const id = await consumeOneTimeToken(tx, 'verify_email', body.token);
      if (!id) throw new DomainError('bad_request', 'Invalid or expired email verification token');
      await tx.getConnection().execute('update app_user set email_verified = ? where id = ?', [true, id], 'run', tx.getTransactionContext());
    });
    return { detail: 'Email address verified.' };
  }

  /** Signs in as any e-mail (created on first use, terms accepted): only with DEV_LOGIN=true, 404 otherwise. */
  async devLogin(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    if (!this.deps.settings.devLogin) throw new NotFoundError('Not Found');
    const body = parseInput(devLoginBodySchema, input);
    const em = this.deps.orm.em.fork();
    let user = await em.findOne(UserEntity, { email_lower: body.email.toLowerCase() });
    if (!user) {
      user = em.create(UserEntity, {
        id: randomUUID(),
        email: body.email,
        email_lower: body.email.toLowerCase(),
        email_verified: true,
        name: body.name ?? null,
        password_hash: null,
        plan: 'free',
        terms_version: this.deps.settings.termsVersion,
        legal_accepted_at: new Date(),
        legal_accepted_ip: ctx.caller.ip,
        created_at: new Date(),
      });
      await em.persist(user).flush();
    }
    return this.signIn(user);
  }

  /**
   * Signs in with a verified identity from a provider: the linked account, else the account
   * with the same e-mail (linked only when the provider verified the e-mail), else a new account.
   */
  async signInWithProvider(_ctx: RequestContext, identity: ProviderIdentity): Promise<SignInResult> {
    if (!identity.emailVerified) {
      throw new DomainError('forbidden', `Your ${identity.provider} account has no verified email address`);
    }
    const em = this.deps.orm.em.fork();
    const userId = await em.transactional(async (tx) => {
      const connection = tx.getConnection();
      const trx = tx.getTransactionContext();
      const [link] = (await connection.execute(
        'select user_id from identity_link where provider = ? and subject = ?',
        [identity.provider, identity.subject],
        'all',
        trx,
      )) as { user_id: string }[];
      if (link) return link.user_id;
      let user = await tx.findOne(UserEntity, { email_lower: identity.email.toLowerCase() });
      if (!user) {
        user = tx.create(UserEntity, {
          id: randomUUID(),
          email: identity.email,
          email_lower: identity.email.toLowerCase(),
          email_verified: true,
          name: identity.name,
          password_hash: null,
          plan: 'free',
          created_at: new Date(),
        });
        await tx.persist(user).flush();
      } else if (!user.email_verified) {
        // Nobody proved owning this address before: whoever registered it may not be the person
        // the provider just verified. The verified owner takes the account over, and everything
        // the first registrant holds ends here, in this transaction: the password, every other
        // session, every API key, and the legal acceptance they gave (the owner accepts anew).
        const now = new Date();
        user.email_verified = true;
        user.password_hash = null;
        user.sessions_valid_after = now;
        user.terms_version = null;
        user.legal_accepted_at = null;
        user.legal_accepted_ip = null;
        await tx.flush();
        await connection.execute('update api_key set revoked_at = ? where user_id = ? and revoked_at is null', [now, user.id], 'run', trx);
        await connection.execute('delete from password_reset where user_id = ? and used_at is null', [user.id], 'run', trx);
      }
      await connection.execute(
        'insert into identity_link (id, user_id, provider, subject, email, created_at) values (?, ?, ?, ?, ?, ?)',
        [randomUUID(), user.id, identity.provider, identity.subject, identity.email, new Date()],
        'run',
        trx,
      );
      return user.id;
    });
    const user = await em.fork().findOneOrFail(UserEntity, { id: userId });
    return this.signIn(user);
  }

  /** The signed-in account: user, plan, workspace role and legal acceptance state. */
  async me(ctx: RequestContext): Promise<MeRecord> {
    const caller = requireAccount(ctx);
    const user = await this.deps.orm.em.fork().findOne(UserEntity, { id: caller.userId });
    if (!user) throw new DomainError('unauthorized', 'Account no longer exists');
    return {
      user: this.userRecord(user),
      plan: user.plan,
      workspace_role: 'owner',
      legal_acceptance: {
        accepted: user.terms_version === this.deps.settings.termsVersion,
        terms_version: user.terms_version ?? null,
        current_terms_version: this.deps.settings.termsVersion,
        accepted_at: user.legal_accepted_at ? new Date(user.legal_accepted_at).toISOString() : null,
      },
    };
  }

  /**
   * Deletes the account and its keys, links, one-time tokens and OAuth grants, and anonymises its usage rows
   * (written or still queued in the batch writer, and those of calls still running) and its
   * feedback reports, in one transaction.
   */
  async deleteMe(ctx: RequestContext, input: unknown): Promise<void> {
    const caller = requireAccount(ctx);
    parseInput(deleteAccountBodySchema, input);
    // from here on, queued and future usage rows of this account are written without its ids
    const forgotten = this.deps.usage.forgetAccount(caller.userId);
    try {
      await this.deps.usage.flush();
      await this.deps.orm.em.fork().transactional(async (tx) => {
        const connection = tx.getConnection();
        const trx = tx.getTransactionContext();
        const run = (sql: string) => connection.execute(sql, [caller.userId], 'run', trx);
        await run('update usage_event set user_id = null, api_key_id = null where user_id = ?');
        // the reports stay for the editors, without their reporter (src/modules/admin/feedback-report.entity.ts)
        await run('update feedback_report set user_id = null, api_key_id = null where user_id = ?');
        await run('delete from api_key where user_id = ?');
        await run('delete from identity_link where user_id = ?');
        await run('delete from password_reset where user_id = ?');
        // the authorization server's grants, codes, refresh tokens and sign-in sessions of the account
        await run("delete from oauth_model where payload->>'accountId' = ?");
        await run('delete from app_user where id = ?');
      });
    } catch (error) {
      forgotten.undo();
      throw error;
    }
  }

  /** The caller a session token stands for, or null when it is invalid, expired or ended by a password reset. */
  async authenticateSession(token: string, ip: string | null): Promise<AccountCaller | null> {
    const verified = await this.deps.tokens.verify('session', token);
    if (!verified) return null;
    return this.authenticateUser(verified.userId, verified.issuedAtMs, { kind: 'user', ip, keyId: null });
  }

  /**
   * The caller for a credential issued to `userId` at `issuedAtMs` (a session, an OAuth access
   * token), or null when the account is gone or every credential issued before a password reset
   * or an account takeover was ended (`sessions_valid_after`).
   */
  async authenticateUser(userId: string, issuedAtMs: number, how: { kind: AccountCaller['kind']; ip: string | null; keyId: null }): Promise<AccountCaller | null> {
    const row = await this.callerRow(userId);
    if (!row || !this.issuedWhileValid(row, issuedAtMs)) return null;
    return this.callerFromRow(row, how);
  }

  /**
   * Whether a credential issued to `userId` at `issuedAtMs` still stands (the authorization
   * server asks before it refreshes a token): the account exists and was not signed out since.
   */
  async credentialStillValid(userId: string, issuedAtMs: number): Promise<boolean> {
    const row = await this.callerRow(userId);
    return Boolean(row && this.issuedWhileValid(row, issuedAtMs));
  }

  private async callerRow(userId: string): Promise<CallerRow | null> {
    if (!UUID.test(userId)) return null;
    const [row] = (await this.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `select id, email, email_verified, plan, sessions_valid_after, billing_period_start, billing_period_end from app_user where id = ?`,
        [userId],
      )) as CallerRow[];
    return row ?? null;
  }

  private issuedWhileValid(row: CallerRow, issuedAtMs: number): boolean {
    return !row.sessions_valid_after || issuedAtMs >= new Date(row.sessions_valid_after).getTime();
  }

  /** Builds an account caller from a user row (used by the session, API key and access-token authenticators). */
  callerFromRow(row: CallerRow, how: { kind: AccountCaller['kind']; ip: string | null; keyId: string | null }): AccountCaller {
    const start = row.billing_period_start ? new Date(row.billing_period_start).getTime() : null;
    const end = row.billing_period_end ? new Date(row.billing_period_end).getTime() : null;
    return {
      kind: how.kind,
      ip: how.ip,
      userId: row.id,
      email: row.email,
      plan: row.plan as AccountCaller['plan'],
      isAdmin: this.isAdmin(row.email, row.email_verified),
      seats: 1,
      keyId: how.keyId,
      billingPeriod: start !== null && end !== null ? { start, end } : null,
    };
  }

  /**
   * Administrators: an e-mail listed in ADMIN_EMAILS that its account has proven to own (verified
   * through /auth/verify-email or an identity provider). Listing alone is not enough: anyone can
   * register a listed address first.
   */
  isAdmin(email: string, emailVerified: boolean | number | null | undefined): boolean {
    return Boolean(emailVerified) && this.deps.settings.adminEmails.includes(email.toLowerCase());
  }

  private async signIn(user: User): Promise<SignInResult> {
    if (user.terms_version !== this.deps.settings.termsVersion) {
      return {
        kind: 'legal_acceptance_required',
        legal_acceptance_token: await this.legalAcceptanceToken(user.id),
        terms_version: this.deps.settings.termsVersion,
      };
    }
    return { kind: 'session', user: this.userRecord(user), session: await this.issueSession(user.id) };
  }

  /** A legal-acceptance token whose id is stored, so the exchange can consume it once. */
  private async legalAcceptanceToken(userId: string): Promise<string> {
    const jti = randomUUID();
    await issueOneTimeToken(this.deps.orm.em.fork(), userId, 'legal_acceptance', LEGAL_TOKEN_TTL_SECONDS * 1000, jti);
    return this.deps.tokens.sign('legal_acceptance', userId, LEGAL_TOKEN_TTL_SECONDS, jti);
  }

  private async issueSession(userId: string): Promise<IssuedSession> {
    return { token: await this.deps.tokens.sign('session', userId, SESSION_TTL_SECONDS), maxAgeSeconds: SESSION_TTL_SECONDS };
  }

  private userRecord(user: User): UserRecord {
    return {
      id: user.id,
      email: user.email,
      name: user.name ?? null,
      plan: user.plan,
      is_admin: this.isAdmin(user.email, user.email_verified),
      email_verified: user.email_verified,
      created_at: new Date(user.created_at).toISOString(),
    };
  }
}

/** The user columns an authenticated caller is built from. */
export interface CallerRow {
  id: string;
  email: string;
  /** PGlite and PostgreSQL both give a boolean; tolerate other drivers' 0/1. */
  email_verified: boolean | number | null;
  plan: string;
  sessions_valid_after?: string | Date | null;
  billing_period_start: string | Date | null;
  billing_period_end: string | Date | null;
}

function loginWindow(limit: number): WindowSpec {
  return { name: 'login', limit, durationMs: LOGIN_WINDOW_MS, bucketMs: 10_000 };
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string } | null;
  return e?.name === 'UniqueConstraintViolationException' || e?.code === '23505' || /duplicate key|unique constraint/i.test(e?.message ?? '');
}
