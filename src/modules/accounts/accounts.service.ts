/**
 * Accounts: registration, password sign-in with throttling, legal acceptance, password reset,
 * development sign-in, identity-provider sign-in, /auth/me and account deletion. Doors call one
 * method each and turn the returned session token into the session cookie.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
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
  legalAcceptanceBodySchema,
  loginBodySchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  registerBodySchema,
  type MeRecord,
  type UserRecord,
} from './account.schema.js';
import type { Mailer } from './mailer.js';
import { hashPassword, timingDummyHash, verifyPassword } from './passwords.js';
import { LEGAL_TOKEN_TTL_SECONDS, SESSION_TTL_SECONDS, type TokenSigner } from './tokens.js';
import { UserEntity, type User } from './user.entity.js';

export const RESET_TOKEN_TTL_MS = 3600_000;

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
    const verified = await this.deps.tokens.verify('legal_acceptance', body.legal_acceptance_token);
    if (!verified) throw new DomainError('unauthorized', 'Invalid or expired legal acceptance token');
    const em = this.deps.orm.em.fork();
    const user = await em.findOne(UserEntity, { id: verified.userId });
    if (!user) throw new DomainError('unauthorized', 'Invalid or expired legal acceptance token');
    if (user.terms_version !== this.deps.settings.termsVersion) {
      user.terms_version = this.deps.settings.termsVersion;
      user.legal_accepted_at = new Date();
      user.legal_accepted_ip = ctx.caller.ip;
      await em.flush();
    }
    return this.signIn(user);
  }

  /** Always succeeds (no account enumeration); mails a one-time token valid one hour when the account exists. */
  async requestPasswordReset(_ctx: RequestContext, input: unknown): Promise<{ detail: string }> {
    const body = parseInput(passwordResetRequestSchema, input);
    const answer = { detail: 'If an account exists for this email, a password reset link has been sent.' };
    const em = this.deps.orm.em.fork();
    const user = await em.findOne(UserEntity, { email_lower: body.email.trim().toLowerCase() });
    if (!user) return answer;
    const token = randomBytes(32).toString('base64url');
    await em
      .getConnection()
      .execute(
        'insert into password_reset (id, user_id, token_hash, expires_at, used_at, created_at) values (?, ?, ?, ?, null, ?)',
        [randomUUID(), user.id, sha256(token), new Date(Date.now() + RESET_TOKEN_TTL_MS), new Date()],
        'run',
      );
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
      const rows = (await tx
        .getConnection()
        .execute(
          `update password_reset set used_at = ? where token_hash = ? and used_at is null and expires_at > ? returning user_id`,
          [new Date(), sha256(body.token), new Date()],
          'all',
          tx.getTransactionContext(),
        )) as { user_id: string }[];
      const id = rows[0]?.user_id;
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
        user.email_verified = true;
        await tx.flush();
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

  /** Deletes the account and its keys, links and reset tokens, and anonymises its usage rows, in one transaction. */
  async deleteMe(ctx: RequestContext, input: unknown): Promise<void> {
    const caller = requireAccount(ctx);
    parseInput(deleteAccountBodySchema, input);
    await this.deps.usage.flush();
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const connection = tx.getConnection();
      const trx = tx.getTransactionContext();
      const run = (sql: string) => connection.execute(sql, [caller.userId], 'run', trx);
      await run('update usage_event set user_id = null, api_key_id = null where user_id = ?');
      await run('delete from api_key where user_id = ?');
      await run('delete from identity_link where user_id = ?');
      await run('delete from password_reset where user_id = ?');
      await run('delete from app_user where id = ?');
    });
  }

  /** The caller a session token stands for, or null when it is invalid, expired or ended by a password reset. */
  async authenticateSession(token: string, ip: string | null): Promise<AccountCaller | null> {
    const verified = await this.deps.tokens.verify('session', token);
    if (!verified) return null;
    const [row] = (await this.deps.orm.em
      .fork()
      .getConnection()
      .execute(
        `select id, email, plan, sessions_valid_after, billing_period_start, billing_period_end from app_user where id = ?`,
        [verified.userId],
      )) as CallerRow[];
    if (!row) return null;
    if (row.sessions_valid_after && verified.issuedAtMs < new Date(row.sessions_valid_after).getTime()) return null;
    return this.callerFromRow(row, { kind: 'user', ip, keyId: null });
  }

  /** Builds an account caller from a user row (used by the session and API key authenticators). */
  callerFromRow(row: CallerRow, how: { kind: 'user' | 'api_key'; ip: string | null; keyId: string | null }): AccountCaller {
    const start = row.billing_period_start ? new Date(row.billing_period_start).getTime() : null;
    const end = row.billing_period_end ? new Date(row.billing_period_end).getTime() : null;
    return {
      kind: how.kind,
      ip: how.ip,
      userId: row.id,
      email: row.email,
      plan: row.plan as AccountCaller['plan'],
      isAdmin: this.isAdmin(row.email),
      seats: 1,
      keyId: how.keyId,
      billingPeriod: start !== null && end !== null ? { start, end } : null,
    };
  }

  isAdmin(email: string): boolean {
    return this.deps.settings.adminEmails.includes(email.toLowerCase());
  }

  private async signIn(user: User): Promise<SignInResult> {
    if (user.terms_version !== this.deps.settings.termsVersion) {
      return {
        kind: 'legal_acceptance_required',
        legal_acceptance_token: await this.deps.tokens.sign('legal_acceptance', user.id, LEGAL_TOKEN_TTL_SECONDS),
        terms_version: this.deps.settings.termsVersion,
      };
    }
    return { kind: 'session', user: this.userRecord(user), session: await this.issueSession(user.id) };
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
      is_admin: this.isAdmin(user.email),
      email_verified: user.email_verified,
      created_at: new Date(user.created_at).toISOString(),
    };
  }
}

/** The user columns an authenticated caller is built from. */
export interface CallerRow {
  id: string;
  email: string;
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
