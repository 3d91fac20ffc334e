/**
 * Wires billing from the configuration: the catalogue file, the Stripe client (when configured),
 * the credit meter and one service per responsibility. The doors call the service that owns what
 * they ask for (`billing.checkout.checkout`, `billing.credits.topupCheckout`, ...).
 */
import type { MikroORM } from '@mikro-orm/core';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { OperationLimiter } from '../usage/operation-limits.js';
import { AutoTopupService } from './auto-topup.service.js';
import type { BillingDeps } from './billing-deps.js';
import { Catalogue, loadCatalogueFile } from './catalogue.js';
import { CheckoutService } from './checkout.service.js';
import { type CreditBalances, MemoryCreditBalances, RedisCreditBalances } from './credit-balances.js';
import { CreditMeter } from './credit-meter.js';
import { CreditsService } from './credits.service.js';
import { PromoService } from './promo.service.js';
import { createStripeClient } from './stripe-client.js';
import { SubscriptionService } from './subscription.service.js';
import { WebhookService } from './webhook.service.js';

export interface BillingModule {
  /** False when STRIPE_SECRET_KEY is not set: plans and status answer, payments answer 503. */
  readonly enabled: boolean;
  readonly catalogue: Catalogue;
  /** Plans, audience, the legal documents, checkout and its verification. */
  readonly checkout: CheckoutService;
  /** Promotion codes. */
  readonly promo: PromoService;
  /** Extra credits: the usage guard's drawer, the meter, buying credits. */
  readonly credits: CreditsService;
  /** Automatic top-ups of the credits. */
  readonly autoTopup: AutoTopupService;
  /** Status, customer portal, seat changes. */
  readonly subscriptions: SubscriptionService;
  /** Stripe's webhooks. */
  readonly webhooks: WebhookService;
  /** Writes pending credit consumption (shutdown). */
  close(): Promise<void>;
}

/** Builds billing's services over `deps`; `webhookSecret` verifies Stripe's webhooks, `balances` holds the spendable credit balances. */
export function buildBillingModule(deps: BillingDeps & { webhookSecret: string | undefined; balances?: CreditBalances }): BillingModule {
  // the meter tells auto top-up of every draw; auto top-up needs the meter: bound once both exist
  let autoTopup: AutoTopupService | undefined;
  const watchBalance = (userId: string, balanceMicro: number) => autoTopup?.watch(userId, balanceMicro);
  const meter = new CreditMeter(deps.orm, deps.logger, watchBalance, undefined, deps.balances);
  autoTopup = new AutoTopupService({ ...deps, meter });
  const promo = new PromoService(deps);
  const credits = new CreditsService({ ...deps, meter, watchBalance });
  return {
    enabled: deps.stripe !== null,
    catalogue: deps.catalogue,
    checkout: new CheckoutService({ ...deps, promo, meter }),
    promo,
    credits,
    autoTopup,
    subscriptions: new SubscriptionService({ ...deps, meter }),
    webhooks: new WebhookService({ ...deps, meter, autoTopup }),
    close: () => meter.close(),
  };
}

/**
 * `redis` (REDIS_URL): the spendable credit balances are shared by every process through it;
 * `limits`: the per-caller operation limits (the accounts module's) every billing mutation counts in.
 */
export function createBillingModule(config: Config, orm: MikroORM, logger: Logger, options: { redis?: Redis | null; limits: OperationLimiter }): BillingModule {
  const settings = config.billing;
  const catalogue = new Catalogue(loadCatalogueFile(settings.catalogueFile), settings.stripe !== null, settings.extraRequestPriceUsd);
  if (!settings.stripe) logger.info('billing: STRIPE_SECRET_KEY is not set: billing is off (plans and status answer; checkout, top-ups, portal and webhooks answer 503)');
  return buildBillingModule({
    orm,
    catalogue,
    stripe: settings.stripe ? createStripeClient(settings.stripe) : null,
    webhookSecret: settings.stripe?.webhookSecret,
    baseUrl: config.baseUrl,
    logger,
    limits: options.limits,
    balances: options.redis ? new RedisCreditBalances(options.redis) : new MemoryCreditBalances(),
  });
}
