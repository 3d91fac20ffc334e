/**
 * Who is calling: every door (REST middleware, GraphQL context, MCP) hands the request's
 * Authorization header, session cookie and IP to `authenticate` and puts the Caller it returns
 * into the RequestContext. Credentials that were sent but are not valid give an anonymous caller
 * carrying the reason, so a billable call answers 401 rather than serving the Anonymous plan.
 */
import type { Caller } from '../../context.js';
import type { AccountsService } from './accounts.service.js';
import type { ApiKeyService } from './api-key.service.js';
import { hasCookie, readCookie } from './cookies.js';
import { SESSION_COOKIE } from './tokens.js';

export interface Credentials {
  authorization: string | undefined;
  cookie: string | undefined;
  ip: string | null;
}

export class Authenticator {
  constructor(private readonly deps: { accounts: AccountsService; apiKeys: ApiKeyService }) {}

  /** True when the request carries credentials worth looking up. */
  static hasCredentials(credentials: Credentials): boolean {
    return Boolean(credentials.authorization) || hasCookie(credentials.cookie, SESSION_COOKIE);
  }

  async authenticate(credentials: Credentials): Promise<Caller> {
    const { ip } = credentials;
    if (credentials.authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization);
      if (!match) return { kind: 'anonymous', ip, rejected: 'Invalid Authorization header: expected "Bearer <API_KEY>"' };
      const token = match[1]!;
      if (token.startsWith('sk-')) {
        return (await this.deps.apiKeys.authenticate(token, ip)) ?? { kind: 'anonymous', ip, rejected: 'Invalid or revoked API key' };
      }
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
}

/** The session cookie's value in a Cookie header, or null (absent or malformed). */
export function sessionToken(cookieHeader: string | undefined): string | null {
  return readCookie(cookieHeader, SESSION_COOKIE);
}
