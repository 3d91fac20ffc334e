/** Builds the express app and mounts every door over the services. */
import express from 'express';
import type { Logger } from './logger.js';
import type { LegalDataApi } from './modules/legal-data/legal-data.port.js';
import { mountGraphql } from './graphql/gateway.js';
import type { AccountsModule } from './modules/accounts/accounts.module.js';
import { accountsRouter } from './rest/accounts.routes.js';
import { identityProviderRouter } from './rest/identity-provider.routes.js';
import { authenticateRequests } from './rest/request-context.js';
import { errorHandler, notFoundHandler } from './rest/errors.js';
import { legalDataRouter } from './rest/legal-data.routes.js';
import { resolveRouter } from './rest/resolve.routes.js';
import { systemRouter } from './rest/system.routes.js';

export interface AppServices {
  legalData: LegalDataApi;
  accounts: AccountsModule;
}

export interface BuiltApp {
  app: express.Express;
  stop(): Promise<void>;
}

export async function buildApp(options: {
  services: AppServices;
  logger: Logger;
  baseUrl: string;
  subgraphUrls: Record<string, string>;
}): Promise<BuiltApp> {
  const { services, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(systemRouter(services.legalData, options.baseUrl));
  // Every door below sees the caller: Bearer API key or session cookie (anonymous otherwise).
  app.use(authenticateRequests(services.accounts.authenticator));
  app.use(accountsRouter({ ...services.accounts, baseUrl: options.baseUrl }));
  app.use(identityProviderRouter({ identityProviders: services.accounts.identityProviders, baseUrl: options.baseUrl }));
  app.use(legalDataRouter(services.legalData));
  app.use(resolveRouter(services.legalData));
  const graphql = await mountGraphql(app, { services, subgraphUrls: options.subgraphUrls, logger });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, stop: () => graphql.stop() };
}
