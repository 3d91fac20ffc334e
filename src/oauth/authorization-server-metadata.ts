/**
 * OAuth 2.0 Authorization Server Metadata (RFC 8414) for MCP clients, every URL derived from
 * BASE_URL. oidc-provider serves no `/.well-known/oauth-authorization-server`, so the document is
 * written here from the same route table the provider is configured with.
 *
 * Served at `/.well-known/oauth-authorization-server` (the issuer has no path) and at its
 * path-aware forms for the protected resources (`/.well-known/oauth-authorization-server/mcp`,
 * `/sse`, and paths under them): clients that do not read the protected-resource metadata take
 * the MCP endpoint's URL as the authorization server's and look there first.
 */
import { Router } from 'express';
import { OAUTH_PATH, OAUTH_ROUTES } from './authorization-server.js';
import { MCP_SCOPE, PROTECTED_RESOURCE_PATHS } from './protected-resource.js';

const WELL_KNOWN = '/.well-known/oauth-authorization-server';

/** The client authentication methods the token endpoint accepts (all for public clients: see public-clients.ts). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

/** The RFC 8414 document. */
export function authorizationServerMetadata(baseUrl: string): Record<string, unknown> {
  const base = baseUrl.replace(/\/+$/, '');
  const endpoint = (route: keyof typeof OAUTH_ROUTES) => `${base}${OAUTH_PATH}${OAUTH_ROUTES[route]}`;
  return {
    issuer: base,
    authorization_endpoint: endpoint('authorization'),
    token_endpoint: endpoint('token'),
    registration_endpoint: endpoint('registration'),
    jwks_uri: endpoint('jwks'),
    revocation_endpoint: endpoint('revocation'),
    scopes_supported: [MCP_SCOPE, 'offline_access'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    // RFC 9207: authorization responses carry `iss`
    authorization_response_iss_parameter_supported: true,
    // draft-ietf-oauth-client-id-metadata-document: an https URL may be the client_id, no registration
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/openapi.json`,
  };
}

/**
 * GET routes of the document (root and path-aware forms); other paths under the well-known prefix
 * are 404. Public and credential-free, so readable cross-origin (browser-based MCP clients; the
 * CORS headers come from src/http/cors.ts).
 */
export function authorizationServerMetadataRouter(baseUrl: string): Router {
  const router = Router();
  const send = (res: import('express').Response) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(authorizationServerMetadata(baseUrl));
  };
  router.get(WELL_KNOWN, (_req, res) => send(res));
  router.get(`${WELL_KNOWN}/*path`, (req, res, next) => {
    const path = `/${(req.params as { path: string[] }).path.join('/')}`;
    if (!PROTECTED_RESOURCE_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return next();
    send(res);
  });
  return router;
}
