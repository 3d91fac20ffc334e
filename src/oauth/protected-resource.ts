/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoints. An MCP client that
 * gets a 401 from /mcp or /sse reads `resource_metadata` from `WWW-Authenticate`, fetches the
 * document named there and learns which authorization server issues tokens for it. Every URL is
 * derived from BASE_URL, never from the request's Host header.
 */
import { Router } from 'express';

/** The protected resources: the MCP endpoints (the SSE message endpoint is under /sse). */
export const PROTECTED_RESOURCE_PATHS = ['/mcp', '/sse'] as const;

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** URL of the metadata document of the resource at `resourcePath` (`''` = the whole service). */
export function protectedResourceMetadataUrl(baseUrl: string, resourcePath: string): string {
  return `${trimSlash(baseUrl)}${WELL_KNOWN}${resourcePath}`;
}

/** The RFC 9728 document of the resource at `resourcePath`. */
export function protectedResourceMetadata(baseUrl: string, resourcePath: string): Record<string, unknown> {
  const base = trimSlash(baseUrl);
  return {
    resource: `${base}${resourcePath}`,
    // The authorization server is this service itself (its issuer is BASE_URL).
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'Legal Search MCP server',
    resource_documentation: `${base}/openapi.json`,
  };
}

/**
 * `/.well-known/oauth-protected-resource` (the whole service, covering /mcp and /sse), its
 * `/mcp` and `/sse` forms, and the path-aware fallback for any path under them
 * (`/.well-known/oauth-protected-resource/sse/messages`). Other paths are not protected
 * resources: 404.
 */
export function protectedResourceRouter(baseUrl: string): Router {
  const router = Router();
  router.get(WELL_KNOWN, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(protectedResourceMetadata(baseUrl, ''));
  });
  router.get(`${WELL_KNOWN}/*path`, (req, res, next) => {
    const segments = (req.params as { path: string[] }).path;
    const resourcePath = `/${segments.join('/')}`;
    if (!PROTECTED_RESOURCE_PATHS.some((p) => resourcePath === p || resourcePath.startsWith(`${p}/`))) return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(protectedResourceMetadata(baseUrl, resourcePath));
  });
  return router;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
