/**
 * The billing subgraph through the supergraph gateway of a real platform (PGlite) whose Stripe
 * client talks to the local Stripe-protocol server: the same service functions as REST, errors
 * with their codes, the User entity extended with its billing state (also through `_entities`),
 * and the per-caller mutation limit (counted by the service; @rateLimit documents it).
 */
import { graphql } from 'graphql';
import { loadConfig } from '../../src/config.js';
import { graphqlContext } from '../../src/graphql/context.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { call, cookieFrom } from '../../test/helpers/http.js';
import { startLocalStripe, type LocalStripe } from '../../test/helpers/stripe-server.js';
import { MUTATION_RATE_LIMIT } from './billing.resolver.js';
import { buildBillingSubgraph } from './index.js';
import { makeTestDataDir } from '../../test/helpers/pglite-template.js';
import { countStatements } from '../../test/helpers/test-databases.js';

describe('billing subgraph through the gateway', () => {
  let platform: Platform;
  let stripeServer: LocalStripe;
  let url: string;
  const gql = (query: string, auth?: { cookie?: string }, variables?: Record<string, unknown>) => call(`${url}/graphql`, 'POST', { query, variables }, auth);

  async function signedIn(email: string): Promise<{ cookie: string; id: string }> {
    const reg = await call(`${url}/auth/register`, 'POST', { email, password: 'a sturdy passphrase 42', accept_terms: true, acknowledge_privacy: true });
    return { id: reg.body.id, cookie: cookieFrom((await call(`${url}/auth/login`, 'POST', { email, password: 'a sturdy passphrase 42' })).headers, 'session')! };
  }

  beforeAll(async () => {
    stripeServer = await startLocalStripe();
    const dataDir = await makeTestDataDir('billing-subgraph-');
    platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, INGEST_ON_START: 'false', PORT: '0', EMBEDDER: 'none', STRIPE_SECRET_KEY: 'sk_test_gql', STRIPE_WEBHOOK_SECRET: 'whsec_gql', STRIPE_API_BASE: stripeServer.url }),
      createLogger('silent'),
    );
    url = platform.url!;
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
    await stripeServer?.stop();
  });

  it('serves both catalogues (open) and the promo check (signed in); GRAPHQL_VALIDATION_FAILED for an unknown audience', async () => {
    const legacy = await gql('{ plans { audience plans { slug per_seat prices { monthly } limits { per_period } price_ids { monthly } recommended } } }');
    expect(legacy.body.data.plans.audience).toBeNull();
    expect(legacy.body.data.plans.plans[1]).toEqual({ slug: 'professional', per_seat: true, prices: { monthly: 29 }, limits: { per_period: 5000 }, price_ids: { monthly: 'price_professional_monthly' }, recommended: null });
    const dev = await gql('{ plans(audience: developer) { audience plans { slug order recommended } } }');
    expect(dev.body.data.plans.plans[1]).toEqual({ slug: 'developer_pro', order: 2, recommended: true });
    const bad = await gql('{ plans(audience: students) { audience } }'); // Audience is an enum: refused before the resolver
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    stripeServer.addPromotionCode('GQL10', { percent_off: 10 });
    expect((await gql('{ promo(code: "GQL10") { valid } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const { cookie } = await signedIn('gql-promo@example.org');
    expect((await gql('{ promo(code: "GQL10") { valid percent_off seats_remaining } }', { cookie })).body.data.promo).toEqual({ valid: true, percent_off: 10, seats_remaining: null });
  });

  it('lists the legal documents a checkout asks assent to: the data processing agreement only for per-seat plans; GRAPHQL_VALIDATION_FAILED for free or unknown plans', async () => {
    const q = '{ checkoutDocuments(plan: %s) { key title version assent } }';
    const solo = (await gql(q.replace('%s', 'developer_pro'))).body.data.checkoutDocuments;
    expect(solo.map((d: { key: string }) => d.key)).toEqual(['general_service_agreement', 'api_mcp_service_terms', 'privacy_notice']);
    expect(solo[2]).toEqual({ key: 'privacy_notice', title: 'Privacy notice', version: '2025-01', assent: 'acknowledge' });
    const seats = (await gql(q.replace('%s', 'professional'))).body.data.checkoutDocuments;
    expect(seats.map((d: { key: string }) => d.key)).toEqual(['general_service_agreement', 'api_mcp_service_terms', 'data_processing_agreement', 'privacy_notice']);
    for (const plan of ['free', 'gold']) {
      // PaidPlan is an enum without free: refused before the resolver
      expect((await gql(q.replace('%s', plan))).body.errors[0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    }
  });

  it('runs checkout and the account mutations through the billing service, with the REST rules and codes', async () => {
    const buyer = await signedIn('gql-buyer@example.org');
    expect((await gql('{ billingStatus { plan } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const refused = await gql('mutation { checkout(input: {plan: professional}) { checkout_url } }', buyer);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [expect.objectContaining({ loc: ['input', 'legalAccepted'] })] });
    const ok = await gql('mutation { checkout(input: {plan: developer_pro, interval: yearly, legalAccepted: true}) { checkout_url } }', buyer);
    expect(ok.body.data.checkout.checkout_url).toMatch(/\/c\/pay\/cs_test_/);
    const sessionId = /(cs_test_\w+)$/.exec(ok.body.data.checkout.checkout_url)![1];
    const other = await signedIn('gql-other@example.org');
    const foreign = await gql('mutation($s: String!) { verifyCheckout(sessionId: $s) { status } }', other, { s: sessionId });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql('mutation($s: String!) { verifyCheckout(sessionId: $s) { status plan interval } }', buyer, { s: sessionId })).body.data.verifyCheckout).toEqual({ status: 'open', plan: 'developer_pro', interval: 'yearly' });
    expect((await gql('mutation { portalSession { url } }', buyer)).body.data.portalSession.url).toMatch(/\/p\/session\//);
    expect((await gql('mutation { portalSession { url } }', other)).body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await gql('mutation { creditTopupCheckout(amountUsd: 10) { checkout_url } }', buyer)).body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await gql('mutation { setAutoTopup(input: {enabled: true}) { enabled } }', buyer)).body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await gql('mutation { setAudience(audience: developer) { audience } }', buyer)).body.data.setAudience).toEqual({ audience: 'developer' });
    const status = await gql('{ billingStatus { billing_enabled plan audience subscription { status } credits { balance_usd } } }', buyer);
    expect(status.body.data.billingStatus).toEqual({ billing_enabled: true, plan: 'free', audience: 'developer', subscription: null, credits: { balance_usd: 0 } });
  });

  it('extends the accounts subgraph\'s user with its billing state, for the caller only', async () => {
    const user = await signedIn('gql-entity@example.org');
    const me = await gql('{ me { user { email billing { plan billing_enabled } } } }', user);
    expect(me.body).toEqual({ data: { me: { user: { email: 'gql-entity@example.org', billing: { plan: 'free', billing_enabled: true } } } } });
    // straight to the subgraph: _entities resolves a user reference; someone else's user has no billing here
    const schema = await buildBillingSubgraph(platform.billing);
    const caller = await platform.accounts.authenticator.authenticate({ authorization: undefined, cookie: user.cookie, ip: '127.0.0.1' });
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on UserType { id billing { plan } } } }';
    const own = await graphql({ schema, source: query, variableValues: { r: [{ __typename: 'UserType', id: user.id }] }, contextValue: graphqlContext(platform.contexts.forCaller(caller)) });
    expect(own.data).toEqual({ _entities: [{ id: user.id, billing: { plan: 'free' } }] });
    const foreign = await graphql({ schema, source: query, variableValues: { r: [{ __typename: 'UserType', id: '00000000-0000-4000-8000-000000000000' }] }, contextValue: graphqlContext(platform.contexts.forCaller(caller)) });
    expect(foreign.data).toEqual({ _entities: [{ id: '00000000-0000-4000-8000-000000000000', billing: null }] });
  });

  it("reads the caller's billing state once per request, however many user references ask for it", async () => {
    const user = await signedIn('gql-many-refs@example.org');
    const schema = await buildBillingSubgraph(platform.billing);
    const caller = await platform.accounts.authenticator.authenticate({ authorization: undefined, cookie: user.cookie, ip: '127.0.0.1' });
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on UserType { id billing { plan } } } }';
    const statementsFor = async (n: number) => {
      const r = Array.from({ length: n }, (_, i) => ({ __typename: 'UserType', id: i % 2 === 0 ? user.id : '00000000-0000-4000-8000-000000000000' }));
      return countStatements(platform.orm, async () => {
        const result = await graphql({ schema, source: query, variableValues: { r }, contextValue: graphqlContext(platform.contexts.forCaller(caller)) });
        expect(result.data!._entities).toHaveLength(n);
        expect((result.data!._entities as { billing: unknown }[]).map((e) => e.billing)).toEqual(r.map((ref) => (ref.id === user.id ? { plan: 'free' } : null)));
      });
    };
    const ten = await statementsFor(10);
    const hundred = await statementsFor(100);
    console.log(`billing User references: ${ten} SQL statements for 10, ${hundred} for 100`);
    // one status read (account, subscription, workspace, override, credits) whatever the list's length
    expect([ten, hundred].every((n) => n <= 8)).toBe(true);
  });

  it('limits mutations per caller, as their @rateLimit documents', async () => {
    const user = await signedIn('gql-limit@example.org');
    for (let i = 0; i < MUTATION_RATE_LIMIT.limit; i++) {
      expect((await gql('mutation { setAudience(audience: developer) { audience } }', user)).body.data).toBeTruthy();
    }
    const limited = await gql('mutation { setAudience(audience: developer) { audience } }', user);
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });
});
