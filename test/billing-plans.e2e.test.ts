/**
 * GET /v1/billing/plans over HTTP (the legacy schema, audience catalogues, 422; the price ids of
 * a server with billing on are checked in billing.e2e.test.ts), and a server without STRIPE_SECRET_KEY: 503 on every paying path.
 */
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { PLANS } from '../src/modules/usage/plans.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { makeTestDataDir } from './helpers/pglite-template.js';

async function platformWith(env: Record<string, string>): Promise<Platform> {
  const dataDir = await makeTestDataDir('billing-plans-');
  return startPlatform(loadConfig({ DATA_DIR: dataDir, PORT: '0', EMBEDDER: 'none', INGEST_ON_START: 'false', ...env }), createLogger('silent'));
}

describe('billing plans', () => {
  let off: Platform;
  // a platform start can take minutes while other jobs load the machine
  beforeAll(async () => {
    off = await platformWith({});
  }, 300_000);
  afterAll(async () => {
    await off?.stop();
  });

  it('serves the legacy schema without credentials: every purchasable plan, limits from the limits table, prices without price ids when billing is off', async () => {
    const res = await call(`${off.url}/v1/billing/plans`, 'GET');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['plans']);
    expect(res.body.plans.map((p: any) => p.slug)).toEqual(['free', 'professional', 'professional_plus', 'developer_pro', 'developer_scale']);
    const pro = res.body.plans.find((p: any) => p.slug === 'professional');
    expect(pro).toEqual({
      slug: 'professional',
      name: 'Professional',
      per_seat: true,
      prices: { monthly: 29, yearly: 290, currency: 'usd' },
      limits: { per_minute: PLANS.professional.perMinute, per_day: null, per_period: PLANS.professional.perPeriod },
      features: expect.arrayContaining([expect.any(String)]),
    });
    expect(res.body.plans.find((p: any) => p.slug === 'free').limits).toEqual({ per_minute: 10, per_day: 20, per_period: 600 });
  });

  it('serves audience catalogues with additive fields, and 422 for an unknown audience', async () => {
    const legacy = (await call(`${off.url}/v1/billing/plans`, 'GET')).body.plans;
    const dev = await call(`${off.url}/v1/billing/plans?audience=developer`, 'GET');
    expect(dev.status).toBe(200);
    expect(dev.body.audience).toBe('developer');
    expect(dev.body.plans.map((p: any) => p.slug)).toEqual(['free', 'developer_pro', 'developer_scale', 'professional', 'professional_plus']);
    for (const plan of dev.body.plans) {
      // every legacy field unchanged; only additions
      expect(plan).toMatchObject(legacy.find((p: any) => p.slug === plan.slug));
      expect(plan).toEqual(expect.objectContaining({ order: expect.any(Number), recommended: expect.any(Boolean) }));
    }
    expect(dev.body.plans.filter((p: any) => p.recommended).map((p: any) => p.slug)).toEqual(['developer_pro']);
    const legal = await call(`${off.url}/v1/billing/plans?audience=legal_professional`, 'GET');
    expect(legal.body.plans[1].slug).toBe('professional');
    const bad = await call(`${off.url}/v1/billing/plans?audience=students`, 'GET');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'audience'], input: 'students' })]);
  });

  it('answers 503 on the paying paths with billing off, while plans and status answer', async () => {
    const email = 'off@example.org';
    await call(`${off.url}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true });
    const login = await call(`${off.url}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' });
    const cookie = cookieFrom(login.headers, 'session')!;
    const paying: [string, string, unknown][] = [
      ['POST', '/v1/billing/checkout', { plan: 'professional', legal_accepted: true }],
      ['POST', '/v1/billing/checkout/verify', { session_id: 'cs_test_x' }],
      ['POST', '/v1/billing/credit-topups/checkout', { amount_usd: 10 }],
      ['GET', '/v1/billing/portal', undefined],
      ['POST', '/v1/billing/portal', undefined],
    ];
    for (const [method, route, body] of paying) {
      const res = await call(`${off.url}${route}`, method, body, { cookie });
      expect([route, res.status, res.body]).toEqual([route, 503, { detail: 'Billing is not configured on this server' }]);
    }
    const webhook = await fetch(`${off.url}/v1/billing/webhooks`, { method: 'POST', headers: { 'stripe-signature': 't=1,v1=x' }, body: '{}' });
    expect([webhook.status, await webhook.json()]).toEqual([503, { detail: 'Billing is not configured on this server' }]);
    const status = await call(`${off.url}/v1/billing/status`, 'GET', undefined, { cookie });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ billing_enabled: false, plan: 'free', subscription: null, workspace: null, credits: { balance_usd: 0 } });
    expect((await call(`${off.url}/v1/billing/status`, 'GET')).status).toBe(401);
  });
});
