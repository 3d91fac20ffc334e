/**
 * A running platform with one of each kind of caller, all made over its own HTTP API, for the
 * authorization matrix (test/authorization-matrix.e2e.test.ts) and the request fuzzing
 * (test/request-fuzz.e2e.test.ts): accounts A and B (Free), a team (Professional, bought through
 * the local Stripe server) with its owner, an admin and a member, an administrator, a key then
 * revoked, a session then signed out, and an OAuth access token of A issued for the MCP resource
 * (another resource than the REST and GraphQL APIs). `throwaway` makes fresh objects of A and of
 * the team for the operations that destroy what they touch.
 */
import Stripe from 'stripe';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { writeCorpusSlice } from '../fixtures/corpus-slice.js';
import { startTestDns, type TestDns } from './dns-server.js';
import { call, cookieFrom, freePort, type HttpResult } from './http.js';
import { authorizeAgentWithPassword } from './oauth-grant.js';
import { makeTestDataDir } from './pglite-template.js';
import { startLocalStripe, type LocalStripe } from './stripe-server.js';

/**
 * The callers of the matrix, in its column order; `partner` (issue #35) is a Free account with an
 * API key that the administrator made a partner of DE/BGH and DE (partner analytics).
 */
export const CALLERS = ['none', 'accountA', 'accountB', 'member', 'teamAdmin', 'owner', 'administrator', 'revokedKey', 'endedSession', 'foreignOAuth', 'partner'] as const;
export type CallerName = (typeof CALLERS)[number];

/** What a caller sends: an API key or OAuth token (Bearer), or the session cookie. */
export interface Credential {
  key?: string;
  cookie?: string;
}

/** The password of A (and of the accounts the rows register). */
export const PASSWORD = 'a sturdy passphrase 42';
const WEBHOOK_SECRET = 'whsec_matrix';
const ADMIN_EMAIL = 'matrix-admin@example.org';
export const TEAM_DOMAIN = 'matrix-firm.example';

export interface CallerWorld {
  platform: Platform;
  base: string;
  stripe: LocalStripe;
  credentials: Record<CallerName, Credential>;
  /** Ids of the callers' accounts (none for the anonymous caller). */
  userIds: Partial<Record<CallerName, string>>;
  /**
   * Objects of A that only a wrongly authorized caller would destroy: a key, an OAuth grant (its
   * client id), a checkout session. A's own destructive calls get throwaways instead.
   */
  a: { email: string; keyId: string; grantClientId: string; checkoutSessionId: string };
  throwaway: Throwaways;
  /** A Stripe event (a new customer) with a valid Stripe-Signature. */
  signedWebhookRequest(): { method: string; path: string; body: unknown; headers: Record<string, string> };
  api(method: string, route: string, body?: unknown, as?: Credential, headers?: Record<string, string>): Promise<HttpResult>;
  stop(): Promise<void>;
}

/** Fresh objects for operations that destroy or change what they are given. */
export interface Throwaways {
  /** A new API key of A (its id). */
  keyOfA(): Promise<string>;
  /** A new OAuth grant of A (its client id). */
  grantOfA(): Promise<string>;
  /** A new member of the team (its user id). */
  teamMember(): Promise<string>;
  /** A new pending invite of the team (its id). */
  invite(): Promise<string>;
  /** A new Free account (its user id), for erasure. */
  account(): Promise<string>;
  /** A new open feedback report (its id). */
  report(): Promise<string>;
  /** The team's join-link token, rotated now (older tokens stop working). */
  joinToken(): Promise<string>;
}

let counter = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++counter}@example.org`;

/** Starts the platform and makes every caller; `env` adds configuration. */
export async function startCallerWorld(env: Record<string, string> = {}): Promise<CallerWorld> {
  const corpus = await writeCorpusSlice([
    { file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: 20, keep: (r) => /^bgb(\/82\d)?$/.test(String(r.source_id)) },
    { file: 'case_law/DE-BGH.jsonl.gz', lines: 5 },
  ]);
  const dataDir = await makeTestDataDir('caller-world-');
  const [stripe, dns] = await Promise.all([startLocalStripe(), startTestDns()]);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = (name: string) => ({
    [`${name}_CLIENT_ID`]: 'matrix-test',
    [`${name}_CLIENT_SECRET`]: 'matrix-test-secret',
    [`${name}_AUTHORIZATION_URL`]: 'http://127.0.0.1:9/authorize',
    [`${name}_TOKEN_URL`]: 'http://127.0.0.1:9/token',
    [`${name}_USERINFO_URL`]: 'http://127.0.0.1:9/userinfo',
  });
  const config = loadConfig({
    DATA_DIR: dataDir,
    CORPUS_DIR: corpus.dir,
    PORT: String(port),
    BASE_URL: base,
    EMBEDDER: 'none',
    RATE_LIMITS: 'off',
    DEV_LOGIN: 'true',
    ADMIN_EMAILS: ADMIN_EMAIL,
    STRIPE_SECRET_KEY: 'sk_test_matrix',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    DNS_SERVERS: dns.servers,
    ...idp('GITHUB'),
    ...idp('GOOGLE'),
    ...idp('MICROSOFT'),
    ...env,
  });
  const platform = await startPlatform(config, createLogger('silent'));
  await platform.ingestDone;
  try {
    return await makeCallers(platform, base, stripe, dns);
  } catch (error) {
    await platform.stop();
    await Promise.all([stripe.stop(), dns.stop()]);
    throw error;
  }
}

async function makeCallers(platform: Platform, base: string, stripe: LocalStripe, dns: TestDns): Promise<CallerWorld> {
  const api: CallerWorld['api'] = async (method, route, body, as, headers) => {
    try {
      return await call(`${base}${route}`, method, body, { ...as, headers });
    } catch (error) {
      // On a loaded machine fetch can reuse a kept-alive socket in the instant the server closes
      // it for idleness (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS): the request never reached the service,
      // so sending it once more on a new socket is what a client would do.
      if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
      return call(`${base}${route}`, method, body, { ...as, headers });
    }
  };
  const expectOk = (what: string, res: HttpResult): HttpResult => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  /** A verified account (dev-login) signed in: its session cookie and id. */
  const devLogin = async (email: string) => {
    const res = expectOk(`dev-login ${email}`, await api('POST', '/auth/dev-login', { email }));
    return { cookie: cookieFrom(res.headers, 'session')!, id: res.body.id as string };
  };
  const newKey = async (as: Credential, name: string) => expectOk(`key ${name}`, await api('POST', '/v1/keys', { name }, as)).body as { id: string; key: string };
  const signed = (event: unknown) => {
    const payload = JSON.stringify(event);
    const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return { method: 'POST', path: '/v1/billing/webhooks', body: JSON.parse(payload) as unknown, headers: { 'stripe-signature': signature } };
  };
  const signedWebhook = (event: unknown) => {
    const request = signed(event);
    return api(request.method, request.path, request.body, undefined, request.headers);
  };

  // A registers with a password (its OAuth grants need one), accepts the terms, signs in
  const emailA = unique('account-a');
  expectOk('register A', await api('POST', '/auth/register', { email: emailA, password: PASSWORD, accept_terms: true, acknowledge_privacy: true }));
  const loginA = expectOk('login A', await api('POST', '/auth/login', { email: emailA, password: PASSWORD }));
  const a = { cookie: cookieFrom(loginA.headers, 'session')!, id: loginA.body.id as string };
  const b = await devLogin(unique('account-b'));
  const keyB = await newKey(b, 'B');
  const administrator = await devLogin(ADMIN_EMAIL);
  const partner = await devLogin(unique('partner'));
  const keyPartner = await newKey(partner, 'partner');
  expectOk('partner scope', await api('PUT', `/v1/admin/users/${partner.id}/partner`, { sources: ['DE/BGH'], countries: ['DE'] }, administrator));

  // the team: its owner buys 100 seats (every throwaway member takes one) of Professional through the local Stripe server
  const owner = await devLogin(unique('team-owner'));
  const checkout = expectOk('team checkout', await api('POST', '/v1/billing/checkout', { plan: 'professional', interval: 'monthly', quantity: 100, legal_accepted: true }, owner));
  const session = stripe.completeSession(/\/c\/pay\/(cs_test_\w+)$/.exec(checkout.body.checkout_url)![1]!);
  expectOk('team webhook', await signedWebhook(stripe.event('checkout.session.completed', session)));
  // The owner's team mutations are limited (20 a minute each, src/modules/usage/operation-limits.ts,
  // the REST and GraphQL rows count too): the world reuses the join link a row has not disabled
  // or rotated (GET /v1/team shows it), and makes invites ten at a time.
  const joinLink = async () => {
    const current = expectOk('team', await api('GET', '/v1/team', undefined, owner)).body.join_link?.token as string | undefined;
    return current ?? (expectOk('join link', await api('POST', '/v1/team/join-link', undefined, owner)).body.join_link.token as string);
  };
  const invites: string[] = [];
  const invite = async () => {
    if (!invites.length) {
      const emails = Array.from({ length: 10 }, () => unique('invitee'));
      invites.push(...expectOk('invites', await api('POST', '/v1/team/invites', { emails }, owner)).body.invites.map((i: { id: string }) => i.id));
    }
    return invites.shift()!;
  };
  const joined = async (label: string) => {
    const account = await devLogin(unique(label));
    expectOk(`join ${label}`, await api('POST', '/v1/team/join', { token: await joinLink() }, account));
    return account;
  };
  const member = await joined('team-member');
  const keyMember = await newKey(member, 'member');
  const teamAdmin = await joined('team-admin');
  expectOk('make admin', await api('PATCH', `/v1/team/members/${teamAdmin.id}`, { role: 'admin' }, owner));
  expectOk('team domain', await api('PUT', '/v1/team/domains', { domains: [TEAM_DOMAIN] }, owner));

  // the ended credentials: a key of A revoked, a session of B signed out
  const revoked = await newKey(a, 'revoked');
  expectOk('revoke', await api('DELETE', `/v1/keys/${revoked.id}`, undefined, a));
  const ended = await devLogin(unique('ended-session'));
  expectOk('logout', await api('POST', '/auth/logout', undefined, ended));
  // an OAuth access token of A, for the MCP endpoint: another resource than these APIs (its
  // grant is also the one the rows that revoke grants aim at)
  const agent = await authorizeAgentWithPassword(base, emailA, PASSWORD, 'Matrix agent');
  const keyOfA = await newKey(a, 'kept');
  const aCheckout = expectOk('checkout of A', await api('POST', '/v1/billing/checkout', { plan: 'developer_pro', interval: 'monthly', legal_accepted: true }, a));

  const throwaway: Throwaways = {
    keyOfA: async () => (await newKey(a, 'throwaway')).id,
    grantOfA: async () => (await authorizeAgentWithPassword(base, emailA, PASSWORD, `Throwaway agent ${++counter}`)).clientId,
    teamMember: async () => (await joined('throwaway-member')).id,
    invite,
    account: async () => (await devLogin(unique('throwaway-account'))).id,
    report: async () => {
      const [row] = (await platform.orm.em
        .fork()
        .getConnection()
        .execute("insert into feedback_report (id, source, issue_type, description, status, channel, created_at) values (gen_random_uuid(), 'DE/BGH', 'other', 'matrix test report', 'open', 'mcp', now()) returning id")) as { id: string }[];
      return row!.id;
    },
    joinToken: joinLink,
  };
  return {
    platform,
    base,
    stripe,
    // A and the team's owner and admin use their session cookie (the dashboard's credential); B and
    // the member an API key: both ways of being an account are in every row
    credentials: {
      none: {},
      accountA: { cookie: a.cookie },
      accountB: { key: keyB.key },
      partner: { key: keyPartner.key },
      member: { key: keyMember.key },
      teamAdmin: { cookie: teamAdmin.cookie },
      owner: { cookie: owner.cookie },
      administrator: { cookie: administrator.cookie },
      revokedKey: { key: revoked.key },
      endedSession: { cookie: ended.cookie },
      foreignOAuth: { key: agent.accessToken },
    },
    userIds: { accountA: a.id, accountB: b.id, member: member.id, teamAdmin: teamAdmin.id, owner: owner.id, administrator: administrator.id, endedSession: ended.id, partner: partner.id },
    a: { email: emailA, keyId: keyOfA.id, grantClientId: agent.clientId, checkoutSessionId: /\/c\/pay\/(cs_test_\w+)$/.exec(aCheckout.body.checkout_url)![1]! },
    throwaway,
    signedWebhookRequest: () => signed(stripe.event('customer.created', { id: `cus_matrix_${++counter}`, object: 'customer' })),
    api,
    stop: async () => {
      await platform.stop();
      await Promise.all([stripe.stop(), dns.stop()]);
    },
  };
}
