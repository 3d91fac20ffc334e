/**
 * Accounts: the one object the doors (REST, GraphQL, the OAuth consent step, the identity-provider
 * callback) call, one method per operation. The work lives along its seams:
 * - password accounts (register, sign-in with its throttle, password reset): password-accounts.service.ts
 * - identity-provider linking: identity-linking.service.ts
 * - account deletion: account-deletion.service.ts
 * - sessions and callers (issue, end at logout, authenticate): sessions.ts
 * What stays here is small: legal acceptance, e-mail verification, development sign-in and /auth/me.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { type AccountCaller, type RequestContext, requireAccount } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { parseInput } from '../../validation.js';
import type { CounterStore } from '../usage/counter-store.js';
import type { UsageService } from '../usage/usage.service.js';
import {
  devLoginBodySchema,
  emailVerificationConfirmSchema,
  legalAcceptanceBodySchema,
  type MeRecord,
  type UserRecord,
} from './account.schema.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { workspaceRoleOf } from './app-user.queries.js';
import { IdentityLinkingService, type ProviderIdentity } from './identity-linking.service.js';
import { proveEmail } from './email-proof.js';
import { type GettingStarted, gettingStartedOf } from './getting-started.js';
import type { MailOutbox } from './mail-outbox.js';
import type { Mailer } from './mailer.js';
import { proofMail } from './proof-mail.js';
import { consumeOneTimeToken, RESET_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS } from './one-time-tokens.js';
import { verificationMail } from './verification-mail.js';
import { type InviteVouch, PasswordAccountsService } from './password-accounts.service.js';
import { SessionService, type CallerOrigin, type CallerRow, type CredentialChecks, type IssuedSession, type SignInResult } from './sessions.js';
import type { SignInThrottleSettings } from './sign-in-throttle.js';
import type { TokenSigner } from './tokens.js';
import { UserEntity } from './user.entity.js';

export { RESET_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS };
export type { CallerRow, IssuedSession, ProviderIdentity, SignInResult, UserRecord };

export interface AccountsSettings {
  adminEmails: string[];
  termsVersion: string;
  devLogin: boolean;
  baseUrl: string;
  /** The password sign-in throttle (LOGIN_* variables). */
  signInThrottle: SignInThrottleSettings;
}

export class AccountsService {
  readonly sessions: SessionService;
  private readonly passwords: PasswordAccountsService;
  private readonly linking: IdentityLinkingService;
  /** Erasure (DELETE /auth/me and the admin area). */
  readonly deletion: AccountDeletionService;

  constructor(
    private readonly deps: {
      orm: MikroORM;
      tokens: TokenSigner;
      mailer: Mailer;
      /** Mail sent after the answer (password reset, what a proof ended). */
      outbox: MailOutbox;
      counters: CounterStore;
      usage: UsageService;
      logger: Logger;
      settings: AccountsSettings;
    },
  ) {
    const { orm, settings } = deps;
    this.sessions = new SessionService({ orm, tokens: deps.tokens, settings });
    this.passwords = new PasswordAccountsService({ orm, sessions: this.sessions, outbox: deps.outbox, counters: deps.counters, settings });
    this.linking = new IdentityLinkingService({ orm, sessions: this.sessions, outbox: deps.outbox, baseUrl: settings.baseUrl });
    this.deletion = new AccountDeletionService({ orm, usage: deps.usage });
  }

  /** Teams answers whether an invite token vouches for a registration's address (no verification mail then). */
  vouchWithInvites(check: InviteVouch): void {
    this.passwords.vouchWithInvites(check);
  }

  /** Creates a password account; 409 when the e-mail (any case, any sign-in method) exists. */
  register(ctx: RequestContext, input: unknown): Promise<UserRecord> {
    return this.passwords.register(ctx, input);
  }

  /** Password sign-in, throttled (src/modules/accounts/sign-in-throttle.ts). */
  login(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    return this.passwords.login(ctx, input);
  }

  /** Ends the session of `sessionToken` server-side (its cookie is refused from now on). */
  logout(ctx: RequestContext, sessionToken: string | null): Promise<void> {
    return sessionToken ? this.sessions.endSession(ctx, sessionToken) : Promise.resolve();
  }

  /** Always the same 200; mails a reset token when the account exists (throttled per IP and address). */
  requestPasswordReset(ctx: RequestContext, input: unknown): Promise<{ detail: string }> {
    return this.passwords.requestPasswordReset(ctx, input);
  }

  /** Consumes a reset token once, sets the password, ends sessions, grants and pre-proof keys (email-proof.ts), starts a new session. */
  confirmPasswordReset(ctx: RequestContext, input: unknown): Promise<{ detail: string; session: IssuedSession }> {
    return this.passwords.confirmPasswordReset(ctx, input);
  }

  /** Signs in with a provider's verified identity (src/modules/accounts/identity-linking.service.ts). */
  signInWithProvider(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInResult> {
    return this.linking.signInWithProvider(ctx, identity);
  }

  /** Deletes the caller's account (src/modules/accounts/account-deletion.service.ts). */
  deleteMe(ctx: RequestContext, input: unknown): Promise<void> {
    return this.deletion.deleteMe(ctx, input);
  }

  /** Records the current terms' acceptance once (timestamp, version, IP) and exchanges the token for a session. */
  async acceptLegal(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    const body = parseInput(legalAcceptanceBodySchema, input);
    const invalid = () => new DomainError('unauthorized', 'Invalid or expired legal acceptance token');
    const verified = await this.deps.tokens.verify('legal_acceptance', body.legal_acceptance_token);
    if (!verified || !verified.jti) throw invalid();
    const jti = verified.jti;
    const user = await ctx.em.transactional(async (tx) => {
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

  /**
   * Mails the signed-in account a one-time token valid 24 hours that proves it owns its e-mail
   * (verification-mail.ts; registration sends the first one). An already verified account gets no mail.
   */
  async requestEmailVerification(ctx: RequestContext): Promise<{ detail: string }> {
    const caller = requireAccount(ctx);
    const em = ctx.em;
    const user = await em.findOne(UserEntity, { id: caller.userId });
    if (!user) throw new DomainError('unauthorized', 'Account no longer exists');
    if (user.email_verified) return { detail: 'This email address is already verified.' };
    const mail = await verificationMail(em, user, this.deps.settings.baseUrl);
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      this.deps.logger.error('email verification: could not send the e-mail', error);
      throw new DomainError('unavailable', 'The verification e-mail could not be sent; try again later');
    }
    return { detail: 'A verification link has been sent to your email address.' };
  }

  /**
   * Consumes a verification token once and marks its account's e-mail proven (no session needed).
   * The first proof ends every credential made before it, in the same transaction
   * (src/modules/accounts/email-proof.ts), and the mail says what ended. The link's holder
   * proved the mailbox, which a reset link would let them take anyway: they get a fresh session,
   * so verifying in a signed-in browser does not sign its owner out.
   */
  async confirmEmailVerification(ctx: RequestContext, input: unknown): Promise<{ detail: string; session: IssuedSession }> {
    const body = parseInput(emailVerificationConfirmSchema, input);
    const outcome = await ctx.em.transactional(async (tx) => {
      const id = await consumeOneTimeToken(tx, 'verify_email', body.token);
      const proven = id ? await proveEmail(tx, id, 'email_verification') : null;
      if (!proven) throw new DomainError('bad_request', 'Invalid or expired email verification token');
      return proven;
    });
    this.deps.outbox.enqueue('email verified', async () => proofMail(outcome, this.deps.settings.baseUrl));
    const session = await this.sessions.issueSession(outcome.userId);
    return { detail: 'Email address verified.', session };
  }

  /** Signs in as any e-mail (created on first use, terms accepted): only with DEV_LOGIN=true, 404 otherwise. */
  async devLogin(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    if (!this.deps.settings.devLogin) throw new NotFoundError('Not Found');
    const body = parseInput(devLoginBodySchema, input);
    const em = ctx.em;
    let user = await em.findOne(UserEntity, { email_lower: body.email.toLowerCase() });
    if (!user) {
      user = em.create(UserEntity, {
        id: randomUUID(),
        email: body.email,
        email_lower: body.email.toLowerCase(),
        email_verified: true,
        email_proven_at: new Date(),
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

  /** The signed-in account: user, plan, workspace role and legal acceptance state. */
  async me(ctx: RequestContext): Promise<MeRecord> {
    const caller = requireAccount(ctx);
    const user = await ctx.em.findOne(UserEntity, { id: caller.userId });
    if (!user) throw new DomainError('unauthorized', 'Account no longer exists');
    // the role in its team workspace (teams' table); alone in its personal workspace it is the owner
    const role = await workspaceRoleOf(ctx.em, caller.userId);
    return {
      user: this.userRecord(user),
      plan: caller.plan,
      workspace_role: role ?? 'owner',
      legal_acceptance: {
        accepted: user.terms_version === this.deps.settings.termsVersion,
        terms_version: user.terms_version ?? null,
        current_terms_version: this.deps.settings.termsVersion,
        accepted_at: user.legal_accepted_at ? new Date(user.legal_accepted_at).toISOString() : null,
      },
    };
  }

  /** The signed-in account's getting-started checklist (getting-started.ts). */
  gettingStarted(ctx: RequestContext): Promise<GettingStarted> {
    return gettingStartedOf(ctx.em, requireAccount(ctx).userId);
  }

  /** The caller a session token stands for, or null (invalid, expired, ended at logout or by a password reset). */
  authenticateSession(token: string, ip: string | null): Promise<AccountCaller | null> {
    return this.sessions.authenticateSession(token, ip);
  }

  /** The caller for a credential issued to `userId` at `issuedAtMs`, or null (see SessionService.authenticateUser). */
  authenticateUser(userId: string, issuedAtMs: number, how: CallerOrigin, checks?: CredentialChecks): Promise<AccountCaller | null> {
    return this.sessions.authenticateUser(userId, issuedAtMs, how, checks);
  }

  /** Whether a credential issued to `userId` at `issuedAtMs` still stands (asked before a token refresh). */
  credentialStillValid(userId: string, issuedAtMs: number): Promise<boolean> {
    return this.sessions.credentialStillValid(userId, issuedAtMs);
  }

  /** Builds an account caller from a user row. */
  callerFromRow(row: CallerRow, how: CallerOrigin): AccountCaller {
    return this.sessions.callerFromRow(row, how);
  }

  /** Administrators: an ADMIN_EMAILS address that its account has verified. */
  isAdmin(email: string, emailVerified: boolean | number | null | undefined): boolean {
    return this.sessions.isAdmin(email, emailVerified);
  }

  private signIn(user: Parameters<SessionService['signIn']>[0]): Promise<SignInResult> {
    return this.sessions.signIn(user);
  }

  private userRecord(user: Parameters<SessionService['userRecord']>[0]): UserRecord {
    return this.sessions.userRecord(user);
  }
}
