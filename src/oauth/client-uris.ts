/**
 * The URIs a client may register (RFC 7591), with the redirect rules of OAuth 2.1 and RFC 8252
 * (OAuth for native apps) that MCP clients rely on:
 *
 * - `https://` to any host: a web redirect (claude.ai, ChatGPT).
 * - `http://` only to a loopback address (`127.0.0.1`, `[::1]`, `localhost`): a native app's
 *   local listener, which may bind any free port, so at authorization the port is ignored
 *   (RFC 8252 §7.3). Plain http to any other host would send codes in clear: refused.
 * - a private-use scheme (`cursor://…`, `vscode://…`, `com.example.app:/cb`, RFC 8252 §7.1):
 *   the desktop app receives the redirect from the operating system. Schemes a browser would
 *   run or read locally (`javascript:`, `data:`, `file:`…) are refused.
 * - no fragment, and no control character (CR/LF, NUL, DEL…) in any URI: the WHATWG URL parser
 *   silently drops tabs and newlines, so such a URI would not be the one that is compared and
 *   redirected to.
 *
 * A client with a loopback or private-use redirect is registered as `application_type: native`:
 * that is what makes oidc-provider match loopback redirects on any port, and it also makes every
 * authorization of such a client show the consent page (a native app's identity cannot be proven,
 * so nothing is approved silently for it). Clients with only https redirects keep what they asked
 * for (`web` by default). The rules run on every client oidc-provider builds: registration and
 * every load of a stored client.
 */
import { errors } from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes that would run or read something in the browser or on the machine instead of reaching an app. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:', 'view-source:', 'ws:', 'wss:', 'ftp:']);
/** The other URI-valued client metadata (RFC 7591 §2) oidc-provider keeps. */
const OTHER_URI_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'jwks_uri', 'sector_identifier_uri', 'initiate_login_uri'];
/** C0 controls, DEL and C1 controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks the client's URIs (throws oidc-provider's `InvalidClientMetadata`: 400
 * `invalid_redirect_uri` for a redirect URI, `invalid_client_metadata` for the others) and sets
 * `application_type: native` when a redirect URI is a loopback or private-use one.
 */
export function applyClientUriRules(metadata: Record<string, unknown>): void {
  for (const field of OTHER_URI_FIELDS) {
    const value = metadata[field];
    if (typeof value === 'string' && CONTROL_CHARACTER.test(value)) {
      throw new errors.InvalidClientMetadata(`${field} must not contain control characters`);
    }
  }
  const redirects = metadata.redirect_uris;
  // not a list of strings: oidc-provider's own checks answer that
  if (!Array.isArray(redirects) || !redirects.every((uri) => typeof uri === 'string')) return;
  let native = false;
  for (const uri of redirects as string[]) {
    if (redirectKind(uri) !== 'web') native = true;
  }
  if (native) metadata.application_type = 'native';
}

/** What a redirect URI is: a web, loopback or private-use redirect; throws when it is none of them. */
function redirectKind(uri: string): 'web' | 'loopback' | 'private-use' {
  // `redirect_uris …` makes oidc-provider answer invalid_redirect_uri (RFC 7591 §3.2.2)
  const refuse = (reason: string) => new errors.InvalidClientMetadata(`redirect_uris ${reason}`);
  if (CONTROL_CHARACTER.test(uri)) throw refuse('must not contain control characters (CR, LF, NUL…)');
  const parsed = URL.parse(uri);
  if (!parsed) throw refuse('must only contain absolute URIs');
  if (uri.includes('#')) throw refuse('must not contain fragments');
  switch (parsed.protocol) {
    case 'https:':
      return 'web';
    case 'http:':
      if (LOOPBACK_HOSTS.has(parsed.hostname)) return 'loopback';
      throw refuse('using http must point to a loopback address (127.0.0.1, [::1] or localhost); use https for any other host');
    default:
      if (FORBIDDEN_SCHEMES.has(parsed.protocol)) throw refuse(`must not use the ${parsed.protocol.slice(0, -1)} scheme`);
      return 'private-use';
  }
}
