/** Builds the express app and mounts every door over the services. */
import express from 'express';
import type { Logger } from './logger.js';
import type { LegalDataApi } from './modules/legal-data/legal-data.port.js';
import { mountGraphql } from './graphql/gateway.js';
import { errorHandler, notFoundHandler } from './rest/errors.js';
import { legalDataRouter } from './rest/legal-data.routes.js';
import { systemRouter } from './rest/system.routes.js';

export interface AppServices {
  legalData: LegalDataApi;
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
  app.use(legalDataRouter(services.legalData));
  const graphql = await mountGraphql(app, { services, subgraphUrls: options.subgraphUrls, logger });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, stop: () => graphql.stop() };
}
