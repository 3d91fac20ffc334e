/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoints. An MCP client that
 * gets a 401 from /mcp or /sse reads `resource_metadata` from `WWW-Authenticate`, fetches the
 * document named there and learns which authorization server issues tokens for it. Every URL is
 * derived from BASE_URL, never from the request's Host header.
 *
 * Not the MCP SDK's `mcpAuthMetadataRouter`: it refuses an http issuer other than localhost at
 * boot (unless MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL, read from process.env behind the
 * configuration's back), serves one resource per router and each router also mounts the root
 * authorization-server document (ours serves its path-aware forms too), has no path-aware
 * fallback (`…/sse/messages`), and its document lacks `bearer_methods_supported`.
 */
import { Router, type Response } from 'express';

/** The protected resources: the MCP endpoints (the SSE message endpoint is under /sse). */
export const PROTECTED_RESOURCE_PATHS = ['/mcp', '/sse'] as const;

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The OAuth scope an access token for the MCP endpoints carries (one scope: call the tools). */
export const MCP_SCOPE = 'mcp';

/**
 * The protected resource (RFC 8707 resource indicator) a request path belongs to: BASE_URL/mcp
 * for /mcp, BASE_URL/sse for /sse and its message endpoint; null for every other path (the REST
 * API and GraphQL do not take OAuth access tokens).
 */
export function protectedResourceOf(baseUrl: string, path: string): string | null {
  const resourcePath = PROTECTED_RESOURCE_PATHS.find((p) => path === p || path.startsWith(`${p}/`));
  return resourcePath ? `${trimSlash(baseUrl)}${resourcePath}` : null;
}

/**
 * The resource indicators a client may ask tokens for: each MCP endpoint, and BASE_URL itself
 * (the resource of the root metadata document, which covers both; clients that read only the
 * root document ask for it).
 */
export function protectedResources(baseUrl: string): string[] {
  const base = trimSlash(baseUrl);
  return [base, ...PROTECTED_RESOURCE_PATHS.map((p) => `${base}${p}`)];
}

/** The `aud` values an access token may carry to be accepted at `resource`: that resource, or the whole service. */
export function acceptedAudiences(baseUrl: string, resource: string): string[] {
  const base = trimSlash(baseUrl);
  return resource === base ? [base] : [resource, base];
}

/** URL of the metadata document of the resource at `resourcePath` (`''` = the whole service). */
export function protectedResourceMetadataUrl(baseUrl: string, resourcePath: string): string {
  return `${trimSlash(baseUrl)}${WELL_KNOWN}${resourcePath}`;
}

/**
 * What a 401 at the resource at `resourcePath` names (RFC 6750 §3, MCP authorization 2025-11-25):
 * its metadata document and the scope a client must ask for, the one scope this server grants.
 */
export function protectedResourceChallenge(baseUrl: string, resourcePath: string): { resourceMetadata: string; scope: string } {
  return { resourceMetadata: protectedResourceMetadataUrl(baseUrl, resourcePath), scope: MCP_SCOPE };
}

/** The RFC 9728 document of the resource at `resourcePath`. */
export function protectedResourceMetadata(baseUrl: string, resourcePath: string): Record<string, unknown> {
  const base = trimSlash(baseUrl);
  return {
    resource: `${base}${resourcePath}`,
    // The authorization server is this service itself (its issuer is BASE_URL).
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: [MCP_SCOPE],
    resource_name: 'Legal Search MCP server',
    resource_documentation: `${base}/openapi.json`,
  };
}

/**
 * `/.well-known/oauth-protected-resource` (the whole service, covering /mcp and /sse), its
 * `/mcp` and `/sse` forms, and the spec's path-aware fallback for any other path: a path under
 * /mcp or /sse (`/sse/messages`) gets its endpoint's document, every other path the whole
 * service's (resource BASE_URL, whose tokens both endpoints accept; a client checks that the
 * resource is a prefix of the URL it asked about, which BASE_URL is).
 */
export function protectedResourceRouter(baseUrl: string): Router {
  const router = Router();
  // public and credential-free: readable cross-origin by browser-based MCP clients (CORS: src/http/cors.ts)
  const send = (res: Response, resourcePath: string) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(protectedResourceMetadata(baseUrl, resourcePath));
  };
  router.get(WELL_KNOWN, (_req, res) => send(res, ''));
  router.get(`${WELL_KNOWN}/*path`, (req, res) => {
    const segments = (req.params as { path: string[] }).path;
    const path = `/${segments.join('/')}`;
    const endpoint = PROTECTED_RESOURCE_PATHS.find((p) => path === p || path.startsWith(`${p}/`));
    send(res, endpoint ? path : '');
  });
  return router;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
