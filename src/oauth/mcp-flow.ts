/**
 * `mcp_flow`: the pending OAuth authorization as the consent page embeds it and
 * POST /auth/password-authorize receives it back. It is base64url(JSON of the pending parameters)
 * + "." + base64url(HMAC-SHA256 of that text) under a key derived from SESSION_SECRET, so any
 * alteration (another client, redirect URI, resource, scope or interaction) is detected.
 *
 * It is also bound to the browser that loaded the page: `browser` is the SHA-256 of a random
 * HttpOnly SameSite=Lax cookie set with the page, which a cross-site POST does not carry.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the user is asked to approve, as the page showed it. */
export interface PendingAuthorization {
  /** The oidc-provider interaction this flow finishes. */
  uid: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  resource: string[];
  /** SHA-256 (base64url) of the browser-binding cookie. */
  browser: string;
  /** Expiry, seconds since the epoch (the interaction's own expiry). */
  exp: number;
}

export type FlowCheck = { ok: true; flow: PendingAuthorization } | { ok: false; reason: 'malformed' | 'altered' | 'expired' };

/** The browser-binding cookie: sent only to POST /auth/password-authorize. */
export const BROWSER_COOKIE = 'oauth_browser';

/** A new random browser-binding value. */
export function newBrowserBinding(): string {
  return randomBytes(32).toString('base64url');
}

/** The value stored in a flow for a browser-binding cookie. */
export function browserHash(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('base64url');
}

export class McpFlowCodec {
  constructor(private readonly key: Buffer) {}

  encode(flow: PendingAuthorization): string {
    const body = Buffer.from(JSON.stringify(flow)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The flow, when it is well formed, unaltered and not expired. */
  decode(value: string, nowSeconds = Math.floor(Date.now() / 1000)): FlowCheck {
    const match = /^([A-Za-z0-9_-]{1,16384})\.([A-Za-z0-9_-]{43})$/.exec(value.trim());
    if (!match) return { ok: false, reason: 'malformed' };
    const [, body, mac] = match as unknown as [string, string, string];
    const expected = Buffer.from(this.mac(body), 'base64url');
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'altered' };
    let flow: PendingAuthorization;
    try {
      flow = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PendingAuthorization;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (typeof flow.exp !== 'number' || flow.exp <= nowSeconds) return { ok: false, reason: 'expired' };
    return { ok: true, flow };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(`mcp_flow.${body}`).digest('base64url');
  }
}
