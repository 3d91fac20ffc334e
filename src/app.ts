/** Builds the express app and mounts every door over the services. */
import type { RequestContexts } from './context.js';
import express from 'express';
import type { Logger } from './logger.js';
import type { LegalDataApi } from './modules/legal-data/legal-data.port.js';
import { mountGraphql } from './graphql/gateway.js';
import type { AccountsModule } from './modules/accounts/accounts.module.js';
import { sessionToken } from './modules/accounts/authenticator.js';
import type { BillingModule } from './modules/billing/billing.module.js';
import type { TeamsServices } from './modules/teams/teams.module.js';
import { teamsRouter } from './rest/teams.routes.js';
import { accountsRouter } from './rest/accounts.routes.js';
import { billingRouter } from './rest/billing.routes.js';
import { contributorsRouter } from './rest/contributors.routes.js';
import { adminRouter } from './rest/admin.routes.js';
import { partnersRouter } from './rest/partners.routes.js';
import type { AdminModule } from './modules/admin/admin.module.js';
import type { ContributorsService } from './modules/legal-data/contributors/contributors.service.js';
import { identityProviderRouter } from './rest/identity-provider.routes.js';
import { authenticateRequests } from './http/request-context.js';
import { errorHandler, notFoundHandler } from './rest/errors.js';
import { legalDataRouter } from './rest/legal-data.routes.js';
import { citatorRouter } from './rest/citator.routes.js';
import { resolveRouter } from './rest/resolve.routes.js';
import { RestApi } from './rest/rest-api.js';
import { systemRouter } from './rest/system.routes.js';
import { applyTrustProxy } from './http/trust-proxy.js';
import { ignoreCookiesFromOtherOrigins, refuseCrossSiteCookieRequests } from './http/cross-site.js';
import { corsForBrowserApps } from './http/cors.js';
import { mcpOriginPolicy, refuseUnlistedOrigins } from './mcp/allowed-origins.js';
import { DEFAULT_HSTS_MAX_AGE_SECONDS, type AllowedOrigins, type GraphqlSettings, type SseLimits, type TrustProxySetting } from './config.js';
import type { FeedbackService } from './modules/admin/feedback.service.js';
import { mcpRouter } from './mcp/mcp.routes.js';
import { PROTECTED_RESOURCE_PATHS, protectedResourceChallenge, protectedResourceOf, protectedResourceRouter } from './oauth/protected-resource.js';
import type { OAuthModule } from './oauth/oauth.module.js';
import { oauthRouter } from './oauth/oauth.routes.js';
import { dashboardRouter, type DashboardSettings } from './http/dashboard.js';
import { graphqlExplorer } from './http/graphql-explorer.js';
import { landingRouter, type LandingSettings } from './http/landing-page.js';
import { legalDocumentsRouter } from './http/legal-documents.js';
import { noStoreForPrivateResponses, securityHeaders } from './http/security-headers.js';
import { compressResponses } from './http/compression.js';

export interface AppServices {
  legalData: LegalDataApi;
  accounts: AccountsModule;
  /** Feedback reports (MCP `report_source_issue`); optional so small test apps can omit it. */
  feedback?: FeedbackService;
  /** The OAuth 2.1 authorization server (/oauth, its metadata, the consent page); optional for small test apps. */
  oauth?: OAuthModule;
  /** Plans, checkout, subscriptions, credits and Stripe's webhooks; optional for small test apps. */
  billing?: BillingModule;
  /** Team workspaces: members, invites, join links, domains, seats; optional for small test apps. */
  teams?: TeamsServices;
  /** Contributor credits (GET /v1/contributors); optional for small test apps. */
  contributors?: ContributorsService;
  /** The administration area (/v1/admin/*); optional for small test apps. */
  admin?: AdminModule;
}

export interface BuiltApp {
  app: express.Express;
  /** Every REST route, mounted and documented (/openapi.json, the manifest's endpoint list). */
  rest: RestApi;
  /** Ends long-lived responses (MCP SSE streams); call it before closing the HTTP server, which waits for them. */
  closeStreams(): Promise<void>;
  /** Open long-lived responses (MCP SSE streams). */
  openStreams(): number;
  stop(): Promise<void>;
}

/** What buildApp needs: the services, their request contexts, and the HTTP-level settings. */
export interface AppOptions {
  services: AppServices;
  /** Where every door gets its RequestContext (one unit of work per request): requestContexts(orm). */
  contexts: RequestContexts;
  logger: Logger;
  baseUrl: string;
  subgraphUrls: Record<string, string>;
  /** Announced by the MCP server. */
  version?: string;
  /** TRUST_PROXY (default: loopback). */
  trustProxy?: TrustProxySetting;
  /** HSTS_MAX_AGE_SECONDS: Strict-Transport-Security max-age when baseUrl is https (default: the configuration's default). */
  hstsMaxAgeSeconds?: number;
  /** Caps on open SSE streams (default: the configuration's defaults). */
  sse?: SseLimits;
  /** GraphQL introspection and operation bounds (default: introspection on, the configuration's default bounds). */
  graphql?: GraphqlSettings;
  /** The web dashboard at /dashboard (omitted: not served). */
  dashboard?: DashboardSettings;
  /** The public landing page at / (omitted: not served). */
  landing?: Omit<LandingSettings, 'baseUrl'>;
  /** REDIS_COMMAND_TIMEOUT_MS, for the GraphQL persisted queries kept in REDIS_URL's Redis (default 250). */
  redisCommandTimeoutMs?: number;
  /** MCP_ALLOWED_ORIGINS: browser origins besides BASE_URL's that may call /mcp and /sse (default: none). */
  mcpAllowedOrigins?: AllowedOrigins;
}

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { services, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  applyTrustProxy(app, options.trustProxy);
  // helmet's headers on every response; pages with stricter ones of their own set them later and win
  app.use(securityHeaders({ baseUrl: options.baseUrl, hstsMaxAgeSeconds: options.hstsMaxAgeSeconds ?? DEFAULT_HSTS_MAX_AGE_SECONDS }));
  app.use(noStoreForPrivateResponses());
  // JSON answers of 1 KiB or more compressed as the client asks (never an event stream, nor the dashboard's own files)
  app.use(compressResponses());
  // Browser pages of other origins: the MCP endpoints refuse unlisted ones (403), then CORS answers
  // every preflight here, before any authentication or 405 (src/http/cors.ts has the table).
  const mcpOriginAllowed = mcpOriginPolicy(options.baseUrl, options.mcpAllowedOrigins ?? []);
  app.use([...PROTECTED_RESOURCE_PATHS], refuseUnlistedOrigins(mcpOriginAllowed));
  app.use(corsForBrowserApps(mcpOriginAllowed));
  // every REST route is described where it is mounted; /openapi.json is generated from `rest`
  const rest = new RestApi(options.baseUrl);
  app.use(systemRouter(services.legalData, rest));
  app.use(protectedResourceRouter(options.baseUrl));
  app.use(legalDocumentsRouter());
  if (options.dashboard) {
    const { accounts } = services.accounts;
    app.use(
      dashboardRouter({
        ...options.dashboard,
        // a session cookie only (never a bearer token): what the page's own requests will carry
        sessionIsLive: async (cookie, ip) => {
          const token = sessionToken(cookie);
          return token !== null && (await accounts.authenticateSession(token, ip)) !== null;
        },
      }),
    );
    // a browser's GET /graphql: the query explorer, built with the dashboard (operations go on to the gateway)
    app.get('/graphql', graphqlExplorer({ dir: options.dashboard.dir, introspection: options.graphql?.introspection ?? true }));
  }
  // Before anything authenticates: a cookie-borne state change from another site never runs.
  app.use(refuseCrossSiteCookieRequests(options.baseUrl));
  // A request from a page of another origin is never authenticated by the session cookie, GET included.
  app.use(ignoreCookiesFromOtherOrigins(options.baseUrl));
  // Every door below sees the caller: Bearer API key or session cookie (anonymous otherwise); at
  // the MCP endpoints also an OAuth access token issued for that resource.
  app.use(
    authenticateRequests(services.accounts.authenticator, options.contexts, {
      protectedResourceOf: (path) => protectedResourceOf(options.baseUrl, path),
      resourceChallengeOf: (path) => {
        const resourcePath = PROTECTED_RESOURCE_PATHS.find((p) => path === p || path.startsWith(`${p}/`));
        return resourcePath ? protectedResourceChallenge(options.baseUrl, resourcePath) : null;
      },
    }),
  );
  if (services.oauth) {
    const { identityProviders, counters } = services.accounts;
    app.use(oauthRouter({ ...services.oauth, identityProviders, counters, baseUrl: options.baseUrl }, rest));
  }
  if (options.landing) app.use(landingRouter(services.legalData, { ...options.landing, baseUrl: options.baseUrl }, logger));
  const mcp = mcpRouter({ services, contexts: options.contexts, baseUrl: options.baseUrl, version: options.version ?? '0.1.0', logger, sse: options.sse });
  app.use(mcp.router);
  for (const router of restRouters(services, options.baseUrl, rest)) app.use(router);
  const redis = services.accounts.redis ? { client: services.accounts.redis, timeoutMs: options.redisCommandTimeoutMs ?? 250 } : null;
  const graphql = await mountGraphql(app, { services, subgraphUrls: options.subgraphUrls, logger, settings: options.graphql, redis });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return {
    app,
    rest,
    closeStreams: () => mcp.close(),
    openStreams: () => mcp.openStreams(),
    async stop() {
      await mcp.close();
      await graphql.stop();
    },
  };
}

/** The REST resources' routers, mounted after the OAuth and MCP doors, in mount order. */
function restRouters(services: AppServices, baseUrl: string, rest: RestApi): express.Router[] {
  return [
    accountsRouter({ ...services.accounts, baseUrl, invites: services.teams?.invites }, rest),
    identityProviderRouter({ identityProviders: services.accounts.identityProviders, baseUrl }, rest),
    ...(services.billing ? [billingRouter(services.billing, rest)] : []),
    ...(services.teams ? [teamsRouter(services.teams, rest)] : []),
    citatorRouter(services.legalData, rest),
    legalDataRouter(services.legalData, rest),
    ...(services.contributors ? [contributorsRouter(services.contributors, rest)] : []),
    ...(services.admin ? [adminRouter(services.admin, rest), partnersRouter(services.admin.partners, rest)] : []),
    resolveRouter(services.legalData, rest),
  ];
}

/**
 * A stand-in for every service, for describing routes without serving them: any property of it,
 * and what calling it returns, is the stand-in again. Building a router only captures its
 * services in handlers (oidc-provider's `callback()` is wrapped, not run), so the routers can be
 * built over it; no handler ever runs.
 */
function unservedServices(): AppServices {
  const standIn: object = new Proxy(function unserved() {}, {
    get: (_target, property) => (property === 'then' ? undefined : standIn),
    apply: () => standIn,
  });
  return standIn as AppServices;
}

/**
 * The /openapi.json a service with every module (billing, teams, admin, OAuth: what
 * startPlatform builds) serves at `baseUrl`, without a database or a server: what
 * `npm run lint:openapi` and `npm run generate:openapi-types` read. test/openapi.e2e.test.ts
 * checks that it equals the served document.
 */
export function describeRestApi(baseUrl: string): Record<string, unknown> {
  const services = unservedServices();
  const rest = new RestApi(baseUrl);
  systemRouter(services.legalData, rest);
  const { provider, consent } = services.oauth!;
  oauthRouter({ provider, consent, identityProviders: services.accounts.identityProviders, counters: services.accounts.counters, baseUrl }, rest);
  restRouters(services, baseUrl, rest);
  return rest.openApiDocument();
}
