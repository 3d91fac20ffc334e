/**
 * Sessions and callers: issuing the session (or, until the current terms are accepted, a
 * single-use legal-acceptance token), ending a session at logout, and turning a credential (a
 * session token, an OAuth access token) back into the account caller on every request.
 *
 * The per-request check is one query on the user row by primary key (`findCallerRow` in
 * app-user.queries.ts, raw SQL on purpose: it runs on every authenticated request, measured by
 * `npm run bench:auth`): it also answers whether the session was ended at logout
 * (`ended_session`) or whether the OAuth grant of an access token still stands (`oauth_model`),
 * so neither check costs a second round trip.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { backgroundEm, type AccountCaller, type RequestContext } from '../../context.js';
import type { UserRecord } from './account.schema.js';
import { type CallerRow, type CheckedCallerRow, findCallerRow } from './app-user.queries.js';
import { isUniqueViolation, sha256 } from './hashing.js';
import { EndedSessionEntity } from './ended-session.entity.js';
import { issueOneTimeToken } from './one-time-tokens.js';
import { LEGAL_TOKEN_TTL_SECONDS, SESSION_TTL_SECONDS, type TokenSigner } from './tokens.js';
import type { User } from './user.entity.js';

/** A new session for the door to put in the cookie. */
export interface IssuedSession {
  token: string;
  maxAgeSeconds: number;
}

/** The outcome of a sign-in: a session, or (terms not accepted) a legal-acceptance token. */
export type SignInResult =
  | { kind: 'session'; user: UserRecord; session: IssuedSession }
  | { kind: 'legal_acceptance_required'; legal_acceptance_token: string; terms_version: string };

export type { CallerRow } from './app-user.queries.js';

/** How a credential reached us, for the caller built from it. */
export interface CallerOrigin {
  kind: AccountCaller['kind'];
  ip: string | null;
  keyId: string | null;
}

/** What a credential must still satisfy beyond the account row: not ended at logout, its OAuth grant not revoked. */
export interface CredentialChecks {
  /** SHA-256 of a session token: refused when the session was ended (logout). */
  sessionHash?: string;
  /** The OAuth grant an access token was issued under: refused once the grant is gone (revoked by the user). */
  grantId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How often one process deletes ended sessions past their expiry (on a logout, never on a read). */
const PRUNE_EVERY_MS = 10 * 60_000;

/** Runs when an account with a verified e-mail signs in (teams: domain auto-join); must not throw. */
export type SignInHook = (user: { id: string; email: string }) => Promise<void>;

/** Runs when a session of `userId` is ended at logout; a failure fails the logout with an error (retrying is safe), never silently. */
export type SignOutHook = (userId: string) => Promise<void>;

export class SessionService {
  private lastPrune = 0;
  private readonly signInHooks: SignInHook[] = [];
  private readonly signOutHooks: SignOutHook[] = [];

  constructor(
    private readonly deps: {
      orm: MikroORM;
      tokens: TokenSigner;
      settings: { adminEmails: string[]; termsVersion: string };
    },
  ) {}

  /** Another module acts on sign-ins of verified addresses (password with a verified e-mail, identity providers). */
  onSignIn(hook: SignInHook): void {
    this.signInHooks.push(hook);
  }

  /** Another module ends sign-ins of its own at logout (the authorization server's sessions). */
  onSignOut(hook: SignOutHook): void {
    this.signOutHooks.push(hook);
  }

  /** A session for `user`, or a legal-acceptance token when it has not accepted the current terms. */
  async signIn(user: User): Promise<SignInResult> {
    if (user.terms_version !== this.deps.settings.termsVersion) {
      return {
        kind: 'legal_acceptance_required',
        legal_acceptance_token: await this.legalAcceptanceToken(user.id),
        terms_version: this.deps.settings.termsVersion,
      };
    }
    if (user.email_verified) for (const hook of this.signInHooks) await hook({ id: user.id, email: user.email });
    return { kind: 'session', user: this.userRecord(user), session: await this.issueSession(user.id) };
  }

  async issueSession(userId: string): Promise<IssuedSession> {
    return { token: await this.deps.tokens.sign('session', userId, SESSION_TTL_SECONDS), maxAgeSeconds: SESSION_TTL_SECONDS };
  }

  /**
   * Ends one session server-side (logout): its token is refused from now on, though its signature
   * and expiry are still valid. Only the token's SHA-256 is stored, until the token expires.
   * The sign-out hooks then run (the authorization server ends its own sign-ins of the account).
   * Other dashboard sessions of the account, and its OAuth clients' tokens, are not touched.
   */
  async endSession(ctx: RequestContext, token: string): Promise<void> {
    const verified = await this.deps.tokens.verify('session', token);
    if (!verified) return;
    const em = ctx.em;
    const tokenHash = sha256(token);
    if (!(await em.findOne(EndedSessionEntity, { token_hash: tokenHash }))) {
      em.create(EndedSessionEntity, {
        token_hash: tokenHash,
        user_id: verified.userId,
        ended_at: new Date(),
        expires_at: new Date(verified.expiresAtMs),
      });
      try {
        await em.flush();
      } catch (error) {
        // two logouts of one session at once: the other one recorded it
        if (!isUniqueViolation(error)) throw error;
      }
    }
    for (const hook of this.signOutHooks) await hook(verified.userId);
    const now = Date.now();
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await em.nativeDelete(EndedSessionEntity, { expires_at: { $lt: new Date(now) } });
    }
  }

  /** The caller a session token stands for, or null when it is invalid, expired, ended at logout or by a password reset. */
  async authenticateSession(token: string, ip: string | null): Promise<AccountCaller | null> {
    const verified = await this.deps.tokens.verify('session', token);
    if (!verified) return null;
    return this.authenticateUser(verified.userId, verified.issuedAtMs, { kind: 'user', ip, keyId: null }, { sessionHash: sha256(token) });
  }

  /**
   * The caller for a credential issued to `userId` at `issuedAtMs` (a session, an OAuth access
   * token), or null when the account is gone, every credential issued before a password reset or
   * an account takeover was ended (`sessions_valid_after`), or a `checks` fails.
   */
  async authenticateUser(userId: string, issuedAtMs: number, how: CallerOrigin, checks: CredentialChecks = {}): Promise<AccountCaller | null> {
    const row = await this.callerRow(userId, checks);
    if (!row || !issuedWhileValid(row, issuedAtMs)) return null;
    if (checks.sessionHash !== undefined && row.session_ended) return null;
    if (checks.grantId !== undefined && !row.grant_live) return null;
    return { ...this.callerFromRow(row, how), credentialIssuedAtMs: issuedAtMs };
  }

  /**
   * Whether a credential issued to `userId` at `issuedAtMs` still stands (the authorization
   * server asks before it refreshes a token): the account exists and was not signed out since.
   */
  async credentialStillValid(userId: string, issuedAtMs: number): Promise<boolean> {
    const row = await this.callerRow(userId, {});
    return Boolean(row && issuedWhileValid(row, issuedAtMs));
  }

  /** Builds an account caller from a user row (used by the session, API key and access-token authenticators). */
  callerFromRow(row: CallerRow, how: CallerOrigin): AccountCaller {
    const start = row.billing_period_start ? new Date(row.billing_period_start).getTime() : null;
    const end = row.billing_period_end ? new Date(row.billing_period_end).getTime() : null;
    return {
      kind: how.kind,
      ip: how.ip,
      userId: row.id,
      email: row.email,
      plan: row.plan as AccountCaller['plan'],
      isAdmin: this.isAdmin(row.email, row.email_verified),
      emailVerified: Boolean(row.email_verified),
      seats: 1,
      keyId: how.keyId,
      billingPeriod: start !== null && end !== null ? { start, end } : null,
    };
  }

  /** Whether the account is an administrator (see isAdministrator). */
  isAdmin(email: string, emailVerified: boolean | number | null | undefined): boolean {
    return isAdministrator(this.deps.settings.adminEmails, email, emailVerified);
  }

  userRecord(user: User): UserRecord {
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

  /** A legal-acceptance token whose id is stored, so the exchange can consume it once. */
  private async legalAcceptanceToken(userId: string): Promise<string> {
    const jti = randomUUID();
    // signIn(user) is shared by every sign-in flow without a context; one statement, its own fork
    await issueOneTimeToken(backgroundEm(this.deps.orm), userId, 'legal_acceptance', LEGAL_TOKEN_TTL_SECONDS * 1000, jti);
    return this.deps.tokens.sign('legal_acceptance', userId, LEGAL_TOKEN_TTL_SECONDS, jti);
  }

  private async callerRow(userId: string, checks: CredentialChecks): Promise<CheckedCallerRow | null> {
    if (!UUID.test(userId)) return null;
    // authentication decides who the caller is: it runs before the request's context exists
    return findCallerRow(backgroundEm(this.deps.orm), userId, checks);
  }
}

/**
 * Administrators: an e-mail listed in ADMIN_EMAILS (`adminEmails`, lower-cased) that its account
 * has proven to own (verified through /auth/verify-email or an identity provider). Listing alone
 * is not enough: anyone can register a listed address first.
 */
export function isAdministrator(adminEmails: readonly string[], email: string, emailVerified: boolean | number | null | undefined): boolean {
  return Boolean(emailVerified) && adminEmails.includes(email.toLowerCase());
}

function issuedWhileValid(row: CallerRow, issuedAtMs: number): boolean {
  return !row.sessions_valid_after || issuedAtMs >= new Date(row.sessions_valid_after).getTime();
}
