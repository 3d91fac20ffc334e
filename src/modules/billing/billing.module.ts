/** Wires billing from the configuration: the catalogue file, the Stripe client (when configured) and the service. */
import type { Config } from '../../config.js';
import { BillingService } from './billing.service.js';
import { Catalogue, loadCatalogueFile } from './catalogue.js';
import { createStripeClient } from './stripe-client.js';

export function createBillingService(config: Config): BillingService {
  const settings = config.billing;
  const catalogue = new Catalogue(loadCatalogueFile(settings.catalogueFile), settings.stripe !== null, settings.extraRequestPriceUsd);
  return new BillingService({ catalogue, stripe: settings.stripe ? createStripeClient(settings.stripe) : null });
}
