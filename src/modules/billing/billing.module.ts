/** Wires billing from the configuration: the catalogue file, the Stripe client (when configured) and the service. */
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Redis } from 'ioredis';
import { BillingService } from './billing.service.js';
import { MemoryCreditBalances, RedisCreditBalances } from './credit-balances.js';
import { Catalogue, loadCatalogueFile } from './catalogue.js';
import { createStripeClient } from './stripe-client.js';

/** `redis` (REDIS_URL): the spendable credit balances are shared by every process through it. */
export function createBillingService(config: Config, orm: MikroORM, logger: Logger, options: { redis?: Redis | null } = {}): BillingService {
  const settings = config.billing;
  const catalogue = new Catalogue(loadCatalogueFile(settings.catalogueFile), settings.stripe !== null, settings.extraRequestPriceUsd);
  if (!settings.stripe) logger.info('billing: STRIPE_SECRET_KEY is not set: billing is off (plans and status answer; checkout, top-ups, portal and webhooks answer 503)');
  return new BillingService({
    orm,
    catalogue,
    stripe: settings.stripe ? createStripeClient(settings.stripe) : null,
    webhookSecret: settings.stripe?.webhookSecret,
    baseUrl: config.baseUrl,
    logger,
    balances: options.redis ? new RedisCreditBalances(options.redis) : new MemoryCreditBalances(),
  });
}
