/**
 * The GraphQL door: an Apollo gateway over the registered subgraphs, mounted at /graphql.
 *
 * The supergraph is composed in process at startup from the subgraphs' code, so it is always
 * current. Subgraphs named in `subgraphUrls` are reached over HTTP (RemoteGraphQLDataSource);
 * the others run in this process (LocalGraphQLDataSource), which executes the subgraph schema
 * with the gateway's context object itself, so in-process resolvers receive the very
 * GraphqlContext built here from the HTTP request; remote subgraphs get its request id in
 * the x-request-id header and build their own context from their request.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contextsWithoutDatabase, withRequestId, type RequestContext, type RequestContexts } from '../context.js';
import type { Authenticator } from '../modules/accounts/authenticator.js';
import { authenticateRequests, contextOf } from '../http/request-context.js';
import type { Logger } from '../logger.js';
import type { Redis } from 'ioredis';
import { GRAPHQL_LIMIT_DEFAULTS, PERSISTED_QUERY_DEFAULTS, type GraphqlSettings, type TrustProxySetting } from '../config.js';
import { applyTrustProxy } from '../http/trust-proxy.js';
import { composeSupergraph } from './compose.js';
import { withIntrospectionRefusal, withoutFieldSuggestions } from './field-suggestions.js';
import { operationLimitOptions, refuseLargeBodies, withLimitErrorCode } from './operation-limits.js';
import { operationResolutionPlugin } from './operation-resolution.js';
import { persistedQueryOptions, withPersistedQueryErrorCode } from './persisted-queries.js';
import { type GraphqlContext, graphqlContext } from './context.js';
import { buildSubgraphs, type GraphqlServices, SUBGRAPHS } from './subgraphs.js';

/** Header carrying the gateway's request id to remote subgraphs. */
export const REQUEST_ID_HEADER = 'x-request-id';

export interface MountGraphqlOptions {
  services: GraphqlServices;
  /** Remote subgraph URLs by subgraph name (config.subgraphUrls); the others run in process. */
  subgraphUrls: Record<string, string>;
  logger?: Logger;
  /** Introspection and the operation bounds (config.graphql); omitted: introspection on, the default bounds. */
  settings?: GraphqlSettings;
  /** REDIS_URL's connection: persisted queries are shared by every process through it (omitted: kept in this process). */
  redis?: { client: Redis; timeoutMs: number; prefix?: string } | null;
}

export interface MountedGraphql {
  /** The supergraph the gateway serves (composed at mount time). */
  supergraphSdl: string;
  stop(): Promise<void>;
}

export async function mountGraphql(app: express.Express, options: MountGraphqlOptions): Promise<MountedGraphql> {
  const { services, subgraphUrls, logger } = options;
  const settings = options.settings ?? { introspection: true, vendorTelemetry: false, limits: GRAPHQL_LIMIT_DEFAULTS };
  const unknown = Object.keys(subgraphUrls).filter((name) => !SUBGRAPHS.some((s) => s.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `subgraphUrls names unknown subgraphs: ${unknown.join(', ')} (known: ${SUBGRAPHS.map((s) => s.name).join(', ')})`,
    );
  }

  const onInternalError = logger ? (error: unknown) => logger.error('GraphQL resolver failed', error) : undefined;
  // Remote subgraphs are built too: composition needs every schema (their resolvers never run here).
  const subgraphs = await buildSubgraphs(services, { onInternalError });
  const supergraphSdl = composeSupergraph(subgraphs.map((s) => ({ ...s, url: subgraphUrls[s.name] })));
  const schemas = new Map(subgraphs.map((s) => [s.name, s.schema]));

  // The library reads this switch from the environment when the gateway is built, and has no
  // option for it: without it the gateway exports telemetry to Apollo and probes cloud metadata
  // addresses (GRAPHQL_VENDOR_TELEMETRY, off by default).
  if (!settings.vendorTelemetry) process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const gateway = new ApolloGateway({
    supergraphSdl,
    logger: logger ? apolloLogger(logger) : undefined,
    buildService({ name }) {
      const url = subgraphUrls[name];
      if (url) return remoteSubgraph(url);
      const schema = schemas.get(name);
      if (!schema) throw new Error(`Supergraph names subgraph "${name}", which is not registered`);
      return new LocalGraphQLDataSource(schema);
    },
    // Every operation that reaches the planner (planned, or its plan taken from the cache) says
    // so at debug level: how the tests and `npm run bench:graphql-limits` check that a refused
    // operation never does.
    experimental_didResolveQueryPlan: logger
      ? ({ requestContext }) => logger.debug('graphql: query plan resolved', { operation: requestContext.operationName ?? null })
      : undefined,
  });

  const server = new ApolloServer<GraphqlContext>({
    gateway,
    stopOnTerminationSignals: false, // src/stop-on-signals.ts owns SIGINT/SIGTERM; platform.stop() stops Apollo after the HTTP drain
    includeStacktraceInErrorResponses: false,
    logger: logger ? apolloLogger(logger) : undefined,
    // Apollo's landing page loads its explorer from a CDN: off; a browser's GET /graphql gets the
    // explorer bundled with the dashboard instead (src/http/graphql-explorer.ts, mounted by app.ts).
    plugins: [operationResolutionPlugin(), ApolloServerPluginLandingPageDisabled()],
    persistedQueries: persistedQueryOptions(settings.persistedQueries ?? PERSISTED_QUERY_DEFAULTS, options.redis ? { ...options.redis, logger } : null),
    // Said explicitly, not left to Apollo's reading of NODE_ENV: config.ts decides. Suggestions
    // ("Did you mean adminUsers?") would give away the schema that introspection hides.
    introspection: settings.introspection,
    ...operationLimitOptions<GraphqlContext>(settings.limits),
    formatError(formatted, error) {
      const coded = withPersistedQueryErrorCode(withLimitErrorCode(formatted, error, settings.limits));
      return settings.introspection ? coded : withIntrospectionRefusal(withoutFieldSuggestions(coded));
    },
  });
  await server.start();
  app.use(
    '/graphql',
    express.json({ limit: settings.limits.maxBodyBytes }),
    expressMiddleware(server, { context: async ({ req }) => graphqlContext(httpRequestContext(req), forwardable(req)) }),
    refuseLargeBodies(settings.limits.maxBodyBytes),
  );
  return { supergraphSdl, stop: () => server.stop() };
}

/** Credentials forwarded to remote subgraphs, which authenticate the caller again (and the user agent, which billing's assent record keeps). */
const FORWARDED_HEADERS = ['authorization', 'cookie', 'user-agent'] as const;

/** A data source for a subgraph served over HTTP, forwarding the request id and the caller's credentials. */
function remoteSubgraph(url: string): RemoteGraphQLDataSource<GraphqlContext> {
  return new RemoteGraphQLDataSource<GraphqlContext>({
    url,
    willSendRequest({ request, context }) {
      const graphql = context as Partial<GraphqlContext>;
      const requestId = graphql.requestContext?.requestId;
      if (requestId) request.http?.headers.set(REQUEST_ID_HEADER, requestId);
      for (const name of FORWARDED_HEADERS) {
        const value = graphql.incomingHeaders?.[name];
        if (value) request.http?.headers.set(name, value);
      }
    },
  });
}

export interface ServeSubgraphOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1; use 0.0.0.0 to accept other hosts. */
  host?: string;
  logger?: Logger;
  /** Authenticates the forwarded credentials (without it every caller is anonymous). */
  authenticator?: Pick<Authenticator, 'authenticate'>;
  /** Where each request's context (and its unit of work) comes from; without it the subgraph serves no database. */
  contexts?: RequestContexts;
  /** TRUST_PROXY (default: loopback). */
  trustProxy?: TrustProxySetting;
}

export interface ServedSubgraph {
  /** The subgraph's GraphQL endpoint, e.g. http://127.0.0.1:4001/graphql. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves one subgraph schema over HTTP at /graphql (remote mode: point the gateway's
 * SUBGRAPH_URLS at it). Each request gets an anonymous RequestContext that keeps the
 * gateway's request id when the x-request-id header carries one.
 */
export async function serveSubgraph(schema: GraphQLSchema, options: ServeSubgraphOptions = {}): Promise<ServedSubgraph> {
  const { port = 0, host = '127.0.0.1', logger } = options;
  const app = express();
  applyTrustProxy(app, options.trustProxy);
  if (options.authenticator) app.use(authenticateRequests(options.authenticator, options.contexts ?? contextsWithoutDatabase));
  const httpServer = createServer(app);
  const server = new ApolloServer<GraphqlContext>({
    schema,
    includeStacktraceInErrorResponses: false,
    logger: logger ? apolloLogger(logger) : undefined,
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer })],
  });
  await server.start();
  app.use(
    '/graphql',
    express.json(),
    expressMiddleware(server, { context: async ({ req }) => graphqlContext(httpRequestContext(req)) }),
  );
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}/graphql`, stop: () => server.stop() };
}

function forwardable(req: express.Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = req.header(name);
    if (value) headers[name] = value;
  }
  return headers;
}

/**
 * The RequestContext of an HTTP request: the caller the authentication middleware found
 * (anonymous, with the caller's IP, when none ran), keeping a
 * well-formed incoming x-request-id (from a proxy, or from the gateway for remote subgraphs)
 * so that logs correlate across hops.
 */
export function httpRequestContext(req: express.Request): RequestContext {
  const context = contextOf(req);
  const requestId = req.header(REQUEST_ID_HEADER);
  return requestId && /^[\w.:-]{1,128}$/.test(requestId) ? withRequestId(context, requestId) : context;
}

function apolloLogger(logger: Logger) {
  const text = (message: unknown) => (typeof message === 'string' ? message : String(message));
  return {
    debug: (message?: unknown) => logger.debug(text(message)),
    info: (message?: unknown) => logger.info(text(message)),
    warn: (message?: unknown) => logger.warn(text(message)),
    error: (message?: unknown) => logger.error(text(message)),
  };
}
