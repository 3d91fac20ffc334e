/**
 * The OAuth 2.1 authorization server for MCP clients: oidc-provider configured as a plain OAuth
 * server under `/oauth`, with BASE_URL as its issuer.
 *
 * - `/oauth/register`: RFC 7591 dynamic registration. Every client is public (PKCE is what
 *   protects its codes): it is stored with `token_endpoint_auth_method: none` whatever it asked
 *   for, and the token endpoint accepts its `client_id` in the body or in a Basic header and
 *   ignores any `client_secret` (src/oauth/public-clients.ts). Redirect URIs follow OAuth 2.1
 *   and RFC 8252: https, loopback http on any port, private-use schemes (src/oauth/client-uris.ts).
 *   The answer carries no OpenID Connect metadata.
 * - Client ID metadata documents: a `client_id` that is an https URL names the client's metadata,
 *   fetched on first use (oidc-provider's draft-02 support) through an SSRF-bound fetch
 *   (src/oauth/client-metadata-fetch.ts), at most 5 KiB, cached 1 minute to 1 hour; the same
 *   public-client and redirect URI rules apply as to a registered client.
 * - `/oauth/authorize`: the `code` response type only, PKCE S256 required (`plain` and a
 *   missing challenge are refused), RFC 8707 `resource` limited to the MCP endpoints; one grant
 *   covers all of them (src/oauth/grant-resources.ts).
 * - `/oauth/token`: code exchange and refresh tokens, rotated on every use; a refused refresh
 *   consumes nothing.
 * - `/oauth/jwks`, `/oauth/revoke`.
 *
 * Access tokens are JWTs (RFC 9068) signed with the persisted ES256 key: `aud` is the resource,
 * `sub` our user id, one hour of life. State lives in the database (src/oauth/oidc-adapter.ts).
 */
import type { MikroORM } from '@mikro-orm/core';
import Provider, { errors, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from '../logger.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { GRANT_ID_CLAIM } from './access-token-verifier.js';
import { clientMetadataFetch } from './client-metadata-fetch.js';
import { applyClientUriRules } from './client-uris.js';
import { renderErrorPage } from './consent-page.js';
import { authorizeForTheWholeMcpServer, firstResource, refuseUncoveredRefresh } from './grant-resources.js';
import { OidcAdapter } from './oidc-adapter.js';
import { MCP_SCOPE, protectedResources } from './protected-resource.js';
import { ACCESS_TOKEN_ALG, type SigningKey } from './signing-key.js';

/** Where oidc-provider is mounted. */
export const OAUTH_PATH = '/oauth';
/** The consent page of an interaction is `${INTERACTION_PATH}/<uid>`. */
export const INTERACTION_PATH = `${OAUTH_PATH}/interaction`;
/** Sign in with e-mail and password from the consent page (the spec's path). */
export const PASSWORD_AUTHORIZE_PATH = '/auth/password-authorize';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Largest client metadata document fetched (a real one is well under 2 KiB; the draft suggests 5 KiB). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/**
 * How long a fetched client metadata document is used, from its Cache-Control max-age or
 * Expires: at least a minute (a client cannot make every request a fetch), at most an hour (a
 * changed document, e.g. redirect URIs taken away, applies within it).
 */
export const CLIENT_METADATA_CACHE_SECONDS = { min: 60, max: 3600 };
const DAY = 24 * 3600;

/** The endpoints, relative to OAUTH_PATH. */
export const OAUTH_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  jwks: '/jwks',
  revocation: '/revoke',
} as const;

export interface AuthorizationServerOptions {
  baseUrl: string;
  orm: MikroORM;
  signingKey: SigningKey;
  /** Key of the authorization server's signed cookies (derived from SESSION_SECRET). */
  cookieKey: Buffer;
  accounts: Pick<AccountsService, 'credentialStillValid'>;
  logger: Logger;
  /** OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: client ID metadata documents may be fetched from private addresses (tests). */
  clientMetadataAllowPrivate?: boolean;
}

/** The configured oidc-provider instance (mount `provider.callback()` at OAUTH_PATH). */
// size: almost all of it is oidc-provider's configuration object, a declarative table whose settings constrain each other (grants, PKCE, resource indicators, refresh rotation, TTLs); auditing the authorization server means reading it whole, so it is not scattered over helpers
export function createAuthorizationServer(options: AuthorizationServerOptions): Provider {
  const { baseUrl, orm, signingKey, accounts, logger } = options;
  const mcpResources = protectedResources(baseUrl);
  const resources = new Set(mcpResources);

  const configuration: Configuration = {
    adapter: OidcAdapter.factory(orm, logger),
    jwks: { keys: [signingKey.privateJwk as JWK] },
    cookies: {
      names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_interaction_resume' },
      keys: [options.cookieKey.toString('base64url')],
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    routes: OAUTH_ROUTES,
    // every outbound request of the authorization server (client metadata documents) is SSRF-bound
    fetch: clientMetadataFetch({ allowPrivate: options.clientMetadataAllowPrivate ?? false }) as Configuration['fetch'],
    fetchResponseBodyLimits: { 'client_id metadata document': CLIENT_METADATA_MAX_BYTES },
    // OAuth 2.1: authorization code only (no implicit, no hybrid); no password grant exists here.
    responseTypes: ['code'],
    pkce: { required: () => true },
    // No OpenID Connect: `openid` is not a scope here, so no ID tokens and no userinfo.
    scopes: ['offline_access'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: ACCESS_TOKEN_ALG,
    },
    clientAuthMethods: ['none', 'client_secret_post', 'client_secret_basic'],
    // CORS of /token and /revoke is answered for any origin before the provider runs
    // (src/http/cors.ts), and the provider's own check then stands aside. Said here as well: by
    // default it would refuse a public client's page whose origin is not one of its redirect URIs'
    // (a loopback redirect, a popup on another origin), and it guards nothing a client without a
    // browser could not do anyway: /token reads no cookie, and a code needs its PKCE verifier.
    clientBasedCORS: () => true,
    extraClientMetadata: {
      // RFC 7591 metadata kept as given; its validator is also the hook (run on every client,
      // registered or loaded) that makes the client public.
      properties: ['software_id', 'software_version'],
      validator(_ctx, key, value, metadata) {
        if (value !== undefined && typeof value !== 'string') throw new errors.InvalidClientMetadata(`${key} must be a string`);
        if (key === 'software_id') {
          makePublicClient(metadata as Record<string, unknown>);
          applyClientUriRules(metadata as Record<string, unknown>);
        }
      },
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // draft-ietf-oauth-client-id-metadata-document (MCP authorization 2025-11-25): a client_id
      // that is an https URL names the client's metadata, fetched on first use and cached
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: CLIENT_METADATA_CACHE_SECONDS,
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the whole MCP service (BASE_URL); a
        // token request naming none gets the first resource the client asked for at authorization.
        defaultResource: (ctx: KoaContextWithOIDC, _client, oneOf) =>
          oneOf ? firstResource(oneOf) : ctx.oidc.route === 'authorization' || ctx.oidc.route === 'resume' ? baseUrl : undefined,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resource) {
          if (!resources.has(resource)) {
            throw new errors.InvalidTarget(`unknown resource ${resource}; this server issues tokens for ${[...resources].join(', ')}`);
          }
          return {
            scope: MCP_SCOPE,
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: ACCESS_TOKEN_ALG } },
          };
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${baseUrl}${INTERACTION_PATH}/${interaction.uid}`,
    },
    // The account behind a code or refresh token must still exist, and a password reset or an
    // account takeover since the token was issued ends it (as it ends sessions).
    async findAccount(_ctx, sub, token) {
      const issuedAtMs = typeof token?.iat === 'number' ? token.iat * 1000 : Date.now();
      if (!(await accounts.credentialStillValid(sub, issuedAtMs))) return undefined;
      return { accountId: sub, claims: () => ({ sub }) };
    },
    // The grant id travels in the JWT, so /mcp and /sse can refuse a token whose grant the user revoked.
    extraTokenClaims: (_ctx, token) => ('grantId' in token && token.grantId ? { [GRANT_ID_CLAIM]: token.grantId } : undefined),
    // MCP clients rarely ask for offline_access: any client registered for the refresh_token
    // grant gets a refresh token, rotated at every use, independent of the sign-in session.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; the hook runs right before the old token is consumed, so a refresh for a
    // resource the grant does not cover is refused there first (src/oauth/grant-resources.ts).
    rotateRefreshToken: (ctx) => {
      refuseUncoveredRefresh(ctx, mcpResources);
      return true;
    },
    expiresWithSession: () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = renderErrorPage({
        title: 'Authorization failed',
        message: `${out.error}: ${out.error_description ?? 'the request could not be processed'}`,
      });
    },
  };

  const provider = new Provider(baseUrl, configuration);
  useBaseUrl(provider, baseUrl);
  askForMcpScope(provider);
  authorizeForTheWholeMcpServer(provider, OAUTH_ROUTES.authorization, mcpResources, baseUrl);
  withoutOpenIdMetadata(provider);
  provider.on('server_error', (_ctx, error) => logger.error('oauth: authorization server error', error));
  return provider;
}

/**
 * Public client: no secret, `none` at the token endpoint (the token endpoint ignores secrets).
 * A registered `scope` is dropped rather than refused: clients register scopes of their own
 * invention, and what a client gets is decided per authorization (the MCP scope on a resource).
 */
function makePublicClient(metadata: Record<string, unknown>): void {
  delete metadata.scope;
  const method = metadata.token_endpoint_auth_method;
  if (method === undefined || method === 'client_secret_post' || method === 'client_secret_basic' || method === 'none') {
    metadata.token_endpoint_auth_method = 'none';
    delete metadata.client_secret;
    delete metadata.client_secret_expires_at;
  }
}

/**
 * Every authorization request asks for the MCP scope, the one thing this server grants: clients
 * that send no scope, or only scopes of their own, would otherwise be refused after consent
 * (oidc-provider denies an authorization that grants none of the requested scopes).
 */
function askForMcpScope(provider: Provider): void {
  provider.use((ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === OAUTH_ROUTES.authorization) {
      const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope : '';
      const scopes = scope.split(' ').filter(Boolean);
      if (!scopes.includes(MCP_SCOPE)) ctx.query = { ...ctx.query, scope: [...scopes, MCP_SCOPE].join(' ') };
    }
    return next();
  });
}

/** Client metadata defined by OpenID Connect Dynamic Client Registration only. */
const OPENID_CLIENT_METADATA = [
  'id_token_signed_response_alg',
  'id_token_encrypted_response_alg',
  'id_token_encrypted_response_enc',
  'subject_type',
  'sector_identifier_uri',
  'userinfo_signed_response_alg',
  'require_auth_time',
  'default_max_age',
  'default_acr_values',
  'post_logout_redirect_uris',
];

/**
 * The registration answer (RFC 7591 §3.2.1) without the OpenID Connect client metadata that
 * oidc-provider fills in by default (`id_token_signed_response_alg`, `subject_type`, …): this
 * server issues no ID tokens, so they would only mislead clients.
 */
function withoutOpenIdMetadata(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method === 'POST' && ctx.path === OAUTH_ROUTES.registration && ctx.body && typeof ctx.body === 'object') {
      for (const field of OPENID_CLIENT_METADATA) delete (ctx.body as Record<string, unknown>)[field];
    }
  });
}

/**
 * Every URL oidc-provider builds (redirects, the resume URL, cookie paths) is derived from
 * BASE_URL, not from the Host and scheme the request reached this process with (a proxy in
 * front, or a test calling 127.0.0.1). A pre-middleware fixes the request's public origin.
 */
function useBaseUrl(provider: Provider, baseUrl: string): void {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  provider.use((ctx, next) => {
    Object.defineProperties(ctx.request, {
      protocol: { value: url.protocol.slice(0, -1) },
      host: { value: url.host },
      hostname: { value: url.hostname },
    });
    // BASE_URL with a path (a proxy strips it): the mount path oidc-provider derives must include it.
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    if (basePath && req.originalUrl && !req.originalUrl.startsWith(`${basePath}/`)) req.originalUrl = `${basePath}${req.originalUrl}`;
    return next();
  });
}
