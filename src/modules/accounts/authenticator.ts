/**
 * Who is calling: every door (REST middleware, GraphQL context, MCP) hands the request's
 * Authorization header, session cookie and IP to `authenticate` and puts the Caller it returns
 * into the RequestContext. Credentials that were sent but are not valid give an anonymous caller
 * carrying the reason, so a billable call answers 401 rather than serving the Anonymous plan.
 *
 * A bearer token is an API key (`sk-…`) or an OAuth access token of the platform's authorization
 * server. Access tokens are audience-bound: they are accepted only on a request addressed to a
 * protected resource (`resource`: the MCP endpoints) and only when their `aud` names it.
 */
import { type Caller, isAccount, type PlanId } from '../../context.js';
import { planOf } from '../usage/plans.js';
import { looksLikeJwt, type AccessTokenCheck } from './access-token.js';
import type { AccountsService } from './accounts.service.js';
import type { ApiKeyService } from './api-key.service.js';
import { hasCookie, readCookie } from '../../util/cookies.js';
import { SESSION_COOKIE } from './tokens.js';

export interface Credentials {
  authorization: string | undefined;
  cookie: string | undefined;
  ip: string | null;
  /** The protected resource (RFC 8707 URI) the request is addressed to; null/undefined when it is none. */
  resource?: string | null;
}

/** Checks OAuth access tokens (src/oauth/access-token-verifier.ts). */
export interface AccessTokenChecker {
  verify(token: string, resource: string): Promise<AccessTokenCheck>;
}

/** A team workspace's terms for one of its members: the owner's plan and billing window, the seat limit. */
export interface TeamMembership {
  workspaceId: string;
  plan: PlanId;
  seats: number;
  billingPeriod: { start: number; end: number } | null;
}

/** The team workspace an account belongs to (teams module), looked up on every request: a removal takes effect at once. */
export interface WorkspaceProvider {
  membershipOf(userId: string): Promise<TeamMembership | null>;
}

/** Why an Authorization header that is not `Bearer <token>` is refused (400 invalid_request at the HTTP doors). */
export const MALFORMED_AUTHORIZATION = 'Invalid Authorization header: expected "Bearer <API_KEY>"';

/** The token of an `Authorization: Bearer <token>` header, or null when the header has another shape. */
export function parseBearer(authorization: string): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null;
}

export class Authenticator {
  private workspaces: WorkspaceProvider | null = null;

  constructor(
    private readonly deps: {
      accounts: AccountsService;
      apiKeys: ApiKeyService;
      /** The authorization server's token check (src/platform.ts); without it only API keys are bearer tokens. */
      accessTokens?: AccessTokenChecker;
    },
  ) {}

  /** True when the request carries credentials worth looking up. */
  static hasCredentials(credentials: Credentials): boolean {
    return Boolean(credentials.authorization) || hasCookie(credentials.cookie, SESSION_COOKIE);
  }

  /** Teams supplies workspace memberships (it is built after the accounts module). */
  useWorkspaces(provider: WorkspaceProvider): void {
    this.workspaces = provider;
  }

  async authenticate(credentials: Credentials): Promise<Caller> {
    const caller = await this.identify(credentials);
    if (this.workspaces && isAccount(caller)) {
      // a member of a team workspace on a per-seat plan uses that plan, its window and its seats
      const team = await this.workspaces.membershipOf(caller.userId);
      if (team && planOf(team.plan).perSeat) {
        Object.assign(caller, { plan: team.plan, seats: team.seats, billingPeriod: team.billingPeriod, workspaceId: team.workspaceId });
      }
    }
    return caller;
  }

  private async identify(credentials: Credentials): Promise<Caller> {
    const { ip } = credentials;
    if (credentials.authorization) {
      const token = parseBearer(credentials.authorization);
      if (token === null) return { kind: 'anonymous', ip, rejected: MALFORMED_AUTHORIZATION };
      if (token.startsWith('sk-')) {
        return (await this.deps.apiKeys.authenticate(token, ip)) ?? { kind: 'anonymous', ip, rejected: 'Invalid or revoked API key' };
      }
      if (this.deps.accessTokens && looksLikeJwt(token)) return this.authenticateAccessToken(token, credentials);
      return { kind: 'anonymous', ip, rejected: 'Invalid bearer token' };
    }
    if (hasCookie(credentials.cookie, SESSION_COOKIE)) {
      const session = readCookie(credentials.cookie, SESSION_COOKIE);
      // a malformed cookie value is an invalid credential: 401, not a crash
      if (!session) return { kind: 'anonymous', ip, rejected: 'Invalid session cookie; sign in again' };
      return (
        (await this.deps.accounts.authenticateSession(session, ip)) ?? {
          kind: 'anonymous',
          ip,
          rejected: 'Session expired or signed out; sign in again',
        }
      );
    }
    return { kind: 'anonymous', ip };
  }

  /** An OAuth access token: valid for the request's resource, and its user still exists and was not signed out since. */
  private async authenticateAccessToken(token: string, credentials: Credentials): Promise<Caller> {
    const { ip, resource } = credentials;
    if (!resource) {
      return { kind: 'anonymous', ip, rejected: 'OAuth access tokens are accepted only by the MCP endpoints (/mcp, /sse); use an API key here' };
    }
    const check = await this.deps.accessTokens!.verify(token, resource);
    if (!check.ok) return { kind: 'anonymous', ip, rejected: check.reason };
    const caller = await this.deps.accounts.authenticateUser(
      check.token.userId,
      check.token.issuedAtMs,
      { kind: 'oauth', ip, keyId: null },
      { grantId: check.token.grantId },
    );
    return (
      caller ?? {
        kind: 'anonymous',
        ip,
        rejected: 'The account of this access token no longer exists, was signed out, or revoked this client; authorize again',
      }
    );
  }
}

/** The session cookie's value in a Cookie header, or null (absent or malformed). */
export function sessionToken(cookieHeader: string | undefined): string | null {
  return readCookie(cookieHeader, SESSION_COOKIE);
}
