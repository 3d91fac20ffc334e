/**
 * The authorization matrix (issue #33 item 9): every REST operation of /openapi.json and every
 * GraphQL root field, and what each caller gets. test/authorization-matrix.e2e.test.ts sends
 * each row's request as each caller and compares.
 *
 * A row's `expect` is one outcome per caller, in the column order of CALLERS
 * (test/helpers/caller-world.ts):
 *
 *     none  A  B  member  teamAdmin  owner  administrator  revokedKey  endedSession  foreignOAuth  partner
 *
 * An outcome is the HTTP status; for GraphQL, 200 is an answer without errors and an error is
 * the status its `extensions.code` stands for (UNAUTHENTICATED 401, FORBIDDEN 403, NOT_FOUND 404,
 * CONFLICT 409, BAD_REQUEST 400...: src/graphql/errors.ts and src/errors.ts). The partner (issue
 * #35) is a Free account like B whose analytics scope is DE/BGH and DE: B's outcome everywhere but
 * the analytics queries of its scope.
 *
 * Requests are valid, so that who calls is what decides. Objects in paths are A's or the
 * team's, so that B (and the other outsiders) must be refused: 404 where the object is someone
 * else's (the service does not say that it exists: SPEC.md leaves the status open, and
 * `revokeKey` documents NOT_FOUND for any other id), 403 where a role is missing. Rows marked `last`
 * change or end the caller itself (joining a team, deleting the account, signing out): they run
 * one at a time after every other row, by their `last` rank, then in the order of this table.
 */
import type { CallerName, CallerWorld } from './helpers/caller-world.js';
import { PASSWORD, TEAM_DOMAIN } from './helpers/caller-world.js';

export interface RestRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
}

export interface MatrixRow<R> {
  /** Builds the request (making throwaway objects when the operation destroys what it is given). */
  request: (world: CallerWorld, caller: CallerName) => R | Promise<R>;
  expect: string;
  /** Runs after every other row, one cell at a time, by rank: 1 the team's join link and A's sign-in, 2 joining the team, 3 deleting the account, 4 signing out. */
  last?: 1 | 2 | 3 | 4;
}

// An invalid bearer credential (a revoked key, A's access token for the MCP resource) is refused
// 401 invalid_token on every operation, open ones included (RFC 6750, issue #34 item 7); an ended
// session cookie is served as no credential where none is needed.
//          callers:   none A   B   mem adm own root rev end oauth partner
const OPEN = /*     */ '200 200 200 200 200 200 200 401 200 401 200';
/** Any account; the ended and foreign credentials are refused like no credential. */
const ACCOUNT = /*  */ '401 200 200 200 200 200 200 401 401 401 200';
/** Administrators only (src/modules/admin). */
const ADMIN = /*    */ '401 403 403 403 403 403 200 401 401 401 403';
/** Partner analytics of DE/BGH and DE: administrators and the partner of that scope (src/modules/analytics). */
const ANALYTICS = '401 403 403 403 403 403 200 401 401 401 200';
/** The team's owner or admins; accounts in their personal workspace have no team role. */
const MANAGERS = /* */ '401 403 403 403 200 200 403 401 401 401 403';
/** The team's owner only. */
const OWNER = /*    */ '401 403 403 403 403 200 403 401 401 401 403';
/** Removing a member of the team: outsiders do not see it (404), a member may not (403), the managers may. */
const REMOVE_MEMBER = '401 404 404 403 200 200 404 401 401 401 404';
/** A subscription checkout: anyone but the owner, who already has one and changes it in the portal (409). */
const CHECKOUT = /* */ '401 200 200 200 200 409 200 401 401 401 200';
/** A's own objects: anyone else gets 404, as if they did not exist. */
const A_ONLY = /*   */ '401 200 404 404 404 404 404 401 401 401 404';
/** Free accounts only (the team's three are on its paid plan): a state conflict, not a permission. */
const FREE_ONLY = /**/ '401 200 200 409 409 409 200 401 401 401 200';
/** Accounts on a paid plan (the team's): Free ones get 409. */
const PAID_ONLY = /**/ '401 409 409 200 200 200 409 401 401 401 409';
/** An active subscription of the account's own: the owner's. */
const SUBSCRIBER = /* */ '401 409 409 409 409 200 409 401 401 401 409';
const EVERYONE_400 = '400 400 400 400 400 400 400 401 400 401 400';

/** A's own call gets a throwaway object; anyone else's targets A's kept one (and must be refused). */
const keyOfA = async (w: CallerWorld, caller: CallerName) => (caller === 'accountA' ? w.throwaway.keyOfA() : w.a.keyId);
const grantOfA = async (w: CallerWorld, caller: CallerName) => (caller === 'accountA' ? w.throwaway.grantOfA() : w.a.grantClientId);
const get = (path: string) => () => ({ method: 'GET', path });

/** A fresh account made a partner (arranged in the database: making one is the PUT row's own check). */
async function throwawayPartner(w: CallerWorld): Promise<string> {
  const id = await w.throwaway.account();
  await w.platform.orm.em.fork().getConnection().execute(`insert into analytics_partner (user_id, sources, countries, updated_at) values (?, '["DE/BGH"]', '[]', now())`, [id]);
  return id;
}
const send = (method: string, path: string, body?: unknown) => () => ({ method, path, body });
let serial = 0;
const fresh = (label: string) => `${label}-${Date.now()}-${++serial}@example.org`;
/**
 * A client address of its own for each request of the per-IP throttled sign-up rows
 * (TRUST_PROXY is loopback, so X-Forwarded-For names the client): the row tests who may call,
 * not the throttle.
 */
const ownClient = () => ({ 'x-forwarded-for': `198.51.100.${(++serial % 250) + 1}` });

/** Keyed `METHOD /path` exactly as /openapi.json lists the operation. */
export const REST_MATRIX: Record<string, MatrixRow<RestRequest>> = {
  // the probes read no credentials at all: a load balancer's check never depends on them
  'GET /health': { request: get('/health'), expect: '200 200 200 200 200 200 200 200 200 200 200' },
  'GET /ready': { request: get('/ready'), expect: '200 200 200 200 200 200 200 200 200 200 200' },
  'POST /auth/password-authorize': {
    // without the consent page's mcp_flow of a live authorization request: refused alike for everyone
    request: send('POST', '/auth/password-authorize', { email: 'nobody@example.org', password: 'not the password', mcp_flow: 'e30' }),
    expect: EVERYONE_400,
  },
  'POST /auth/register': {
    request: () => ({ method: 'POST', path: '/auth/register', body: { email: fresh('registered'), password: PASSWORD, accept_terms: true, acknowledge_privacy: true }, headers: ownClient() }),
    expect: OPEN,
  },
  // one at a time: the sign-in throttle counts each attempt on A before it checks the password, so
  // more than 5 of the row's 10 at once are paced with 429 (a loaded machine overlapped them in CI)
  'POST /auth/login': { request: (w) => ({ method: 'POST', path: '/auth/login', body: { email: w.a.email, password: PASSWORD } }), expect: OPEN, last: 1 },
  'POST /auth/legal-acceptance': {
    request: async (w) => {
      const email = fresh('terms');
      await w.api('POST', '/auth/register', { email, password: PASSWORD }, undefined, ownClient());
      const login = await w.api('POST', '/auth/login', { email, password: PASSWORD });
      return { method: 'POST', path: '/auth/legal-acceptance', body: { legal_acceptance_token: login.body.legal_acceptance_token, accept_terms: true, acknowledge_privacy: true } };
    },
    expect: OPEN,
  },
  'POST /auth/password-reset/request': { request: () => ({ method: 'POST', path: '/auth/password-reset/request', body: { email: 'nobody@example.org' }, headers: ownClient() }), expect: OPEN },
  // a token nobody was sent: the token, not the caller, decides
  'POST /auth/password-reset/confirm': { request: send('POST', '/auth/password-reset/confirm', { token: 'not-a-token', password: 'a sturdy passphrase 42' }), expect: EVERYONE_400 },
  'POST /auth/verify-email/request': { request: send('POST', '/auth/verify-email/request'), expect: ACCOUNT },
  // a token that is no pending invite: 404 for every account (an unknown token says nothing of any team)
  'POST /auth/verify-email/invite': { request: send('POST', '/auth/verify-email/invite', { token: 'not-a-token' }), expect: '401 404 404 404 404 404 404 401 401 401 404' },
  'POST /auth/verify-email/confirm': { request: send('POST', '/auth/verify-email/confirm', { token: 'not-a-token' }), expect: EVERYONE_400 },
  'POST /auth/dev-login': { request: () => ({ method: 'POST', path: '/auth/dev-login', body: { email: fresh('dev') } }), expect: OPEN },
  'GET /auth/me': { request: get('/auth/me'), expect: ACCOUNT },
  'GET /v1/keys': { request: get('/v1/keys'), expect: ACCOUNT },
  'POST /v1/keys': { request: send('POST', '/v1/keys', { name: 'matrix' }), expect: ACCOUNT },
  'DELETE /v1/keys/{key_id}': { request: async (w, c) => ({ method: 'DELETE', path: `/v1/keys/${await keyOfA(w, c)}` }), expect: A_ONLY },
  'GET /v1/oauth/grants': { request: get('/v1/oauth/grants'), expect: ACCOUNT },
  'DELETE /v1/oauth/grants/{id}': { request: async (w, c) => ({ method: 'DELETE', path: `/v1/oauth/grants/${await grantOfA(w, c)}` }), expect: A_ONLY },
  'GET /v1/usage/me': { request: get('/v1/usage/me'), expect: ACCOUNT },
  'GET /v1/usage/breakdown': { request: get('/v1/usage/breakdown'), expect: ACCOUNT },
  'PATCH /v1/keys/{key_id}': { request: async (w, c) => ({ method: 'PATCH', path: `/v1/keys/${await keyOfA(w, c)}`, body: { name: 'renamed' } }), expect: A_ONLY },
  'GET /auth/github': { request: get('/auth/github'), expect: '302 302 302 302 302 302 302 401 302 401 302' },
  'GET /auth/github/callback': { request: get('/auth/github/callback?code=c&state=s'), expect: EVERYONE_400 },
  'GET /auth/google': { request: get('/auth/google'), expect: '302 302 302 302 302 302 302 401 302 401 302' },
  'GET /auth/google/callback': { request: get('/auth/google/callback?code=c&state=s'), expect: EVERYONE_400 },
  'GET /auth/microsoft': { request: get('/auth/microsoft'), expect: '302 302 302 302 302 302 302 401 302 401 302' },
  'GET /auth/microsoft/callback': { request: get('/auth/microsoft/callback?code=c&state=s'), expect: EVERYONE_400 },
  'GET /v1/billing/plans': { request: get('/v1/billing/plans'), expect: OPEN },
  'POST /v1/billing/audience': { request: send('POST', '/v1/billing/audience', { audience: 'developer' }), expect: FREE_ONLY },
  'GET /v1/billing/promo': { request: get('/v1/billing/promo?code=NOSUCHCODE'), expect: ACCOUNT },
  'POST /v1/billing/checkout': { request: send('POST', '/v1/billing/checkout', { plan: 'developer_pro', interval: 'monthly', legal_accepted: true }), expect: CHECKOUT },
  'POST /v1/billing/checkout/verify': { request: (w) => ({ method: 'POST', path: '/v1/billing/checkout/verify', body: { session_id: w.a.checkoutSessionId } }), expect: A_ONLY },
  'POST /v1/billing/credit-topups/checkout': { request: send('POST', '/v1/billing/credit-topups/checkout', { amount_usd: 10 }), expect: PAID_ONLY },
  'GET /v1/billing/credit-topups/auto': { request: get('/v1/billing/credit-topups/auto'), expect: ACCOUNT },
  'PUT /v1/billing/credit-topups/auto': { request: send('PUT', '/v1/billing/credit-topups/auto', { enabled: false, threshold_usd: 10, amount_usd: 10 }), expect: SUBSCRIBER },
  'GET /v1/billing/portal': { request: get('/v1/billing/portal'), expect: ACCOUNT },
  'POST /v1/billing/portal': { request: send('POST', '/v1/billing/portal'), expect: ACCOUNT },
  'GET /v1/billing/status': { request: get('/v1/billing/status'), expect: ACCOUNT },
  'GET /v1/billing/invoices': { request: get('/v1/billing/invoices'), expect: ACCOUNT },
  'POST /v1/billing/webhooks': {
    // the Stripe-Signature authenticates a webhook, whatever else the request carries
    request: (w) => w.signedWebhookRequest(),
    expect: OPEN,
  },
  'GET /v1/team': { request: get('/v1/team'), expect: ACCOUNT },
  'POST /v1/team/invites': { request: () => ({ method: 'POST', path: '/v1/team/invites', body: { emails: [fresh('invitee')] } }), expect: MANAGERS },
  'DELETE /v1/team/invites/{invite_id}': { request: async (w) => ({ method: 'DELETE', path: `/v1/team/invites/${await w.throwaway.invite()}` }), expect: MANAGERS },
  'PUT /v1/team/domains': { request: send('PUT', '/v1/team/domains', { domains: [TEAM_DOMAIN] }), expect: MANAGERS },
  'POST /v1/team/domains/{domain}/check': { request: send('POST', `/v1/team/domains/${TEAM_DOMAIN}/check`), expect: MANAGERS },
  'PATCH /v1/team/members/{member_user_id}': { request: async (w) => ({ method: 'PATCH', path: `/v1/team/members/${await w.throwaway.teamMember()}`, body: { role: 'admin' } }), expect: OWNER },
  'DELETE /v1/team/members/{member_user_id}': { request: async (w) => ({ method: 'DELETE', path: `/v1/team/members/${await w.throwaway.teamMember()}` }), expect: REMOVE_MEMBER },
  'POST /v1/team/seats': { request: send('POST', '/v1/team/seats', { quantity: 100 }), expect: OWNER },
  'POST /v1/search': { request: send('POST', '/v1/search', { q: 'Schadensersatz' }), expect: ACCOUNT },
  'GET /v1/documents/{country}/{source_name}/{source_id}': { request: get('/v1/documents/DE/GesetzeImInternet/bgb/823'), expect: ACCOUNT },
  'GET /v1/documents/{country}/{source_name}/{source_id}/cited-by': { request: get('/v1/documents/DE/GesetzeImInternet/bgb/823/cited-by'), expect: ACCOUNT },
  'GET /v1/documents/{country}/{source_name}/{source_id}/cites': { request: get('/v1/documents/DE/GesetzeImInternet/bgb/823/cites'), expect: ACCOUNT },
  'GET /v1/documents/{country}/{source_name}': { request: get('/v1/documents/DE/GesetzeImInternet?source_id=bgb/823'), expect: ACCOUNT },
  'GET /v1/discover/countries': { request: get('/v1/discover/countries'), expect: OPEN },
  'GET /v1/discover/countries/{country_code}/sources': { request: get('/v1/discover/countries/DE/sources'), expect: OPEN },
  'GET /v1/discover/sources/{source}/filters': { request: get('/v1/discover/sources/DE/BGH/filters'), expect: OPEN },
  'GET /v1/discover/courts': { request: get('/v1/discover/courts?country=DE'), expect: OPEN },
  'GET /v1/stats': { request: get('/v1/stats'), expect: OPEN },
  'GET /v1/manifest': { request: get('/v1/manifest'), expect: OPEN },
  'GET /v1/contributors': { request: get('/v1/contributors'), expect: OPEN },
  'GET /v1/admin/stats': { request: get('/v1/admin/stats'), expect: ADMIN },
  'GET /v1/admin/users': { request: get('/v1/admin/users?limit=5'), expect: ADMIN },
  'GET /v1/admin/users/{user_id}/endpoints': { request: (w) => ({ method: 'GET', path: `/v1/admin/users/${w.userIds.accountA}/endpoints` }), expect: ADMIN },
  'PATCH /v1/admin/users/{user_id}': { request: (w) => ({ method: 'PATCH', path: `/v1/admin/users/${w.userIds.accountB}`, body: { plan: null, reason: 'matrix' } }), expect: ADMIN },
  'DELETE /v1/admin/users/{user_id}': { request: async (w) => ({ method: 'DELETE', path: `/v1/admin/users/${await w.throwaway.account()}`, body: { reason: 'matrix' } }), expect: ADMIN },
  'GET /v1/admin/feedback': { request: get('/v1/admin/feedback?status=all'), expect: ADMIN },
  'PATCH /v1/admin/feedback/{report_id}': { request: async (w) => ({ method: 'PATCH', path: `/v1/admin/feedback/${await w.throwaway.report()}`, body: { status: 'resolved', note: 'matrix' } }), expect: ADMIN },
  'POST /v1/admin/feedback/{report_id}/mark-forwarded': {
    request: async (w) => ({ method: 'POST', path: `/v1/admin/feedback/${await w.throwaway.report()}/mark-forwarded`, body: { url: 'https://github.com/worldwidelaw/legal-sources/issues/1' } }),
    expect: ADMIN,
  },
  'GET /v1/admin/audit': { request: get('/v1/admin/audit'), expect: ADMIN },
  'GET /v1/admin/users/{user_id}/partner': { request: (w) => ({ method: 'GET', path: `/v1/admin/users/${w.userIds.partner}/partner` }), expect: ADMIN },
  'PUT /v1/admin/users/{user_id}/partner': { request: async (w) => ({ method: 'PUT', path: `/v1/admin/users/${await w.throwaway.account()}/partner`, body: { sources: ['DE/BGH'] } }), expect: ADMIN },
  'DELETE /v1/admin/users/{user_id}/partner': { request: async (w) => ({ method: 'DELETE', path: `/v1/admin/users/${await throwawayPartner(w)}/partner` }), expect: ADMIN },
  'POST /v1/resolve': { request: send('POST', '/v1/resolve', { reference: '§ 823 BGB', hint_country: 'DE' }), expect: ACCOUNT },
  'GET /v1/resolve/coverage': { request: get('/v1/resolve/coverage'), expect: ACCOUNT },
  // the rows that change or end the caller itself, in this order
  'POST /v1/team/join-link': { request: send('POST', '/v1/team/join-link'), expect: MANAGERS, last: 1 },
  'DELETE /v1/team/join-link': { request: send('DELETE', '/v1/team/join-link'), expect: MANAGERS, last: 1 },
  'POST /v1/team/join': { request: async (w) => ({ method: 'POST', path: '/v1/team/join', body: { token: await w.throwaway.joinToken() } }), expect: ACCOUNT, last: 2 },
  'DELETE /auth/me': { request: send('DELETE', '/auth/me', { confirmation: 'DELETE' }), expect: ACCOUNT, last: 3 },
  // after DELETE /auth/me every account is gone: B's and the member's API keys are then invalid
  // bearer credentials (401), the others' session cookies are served as no credential (200)
  'POST /auth/logout': { request: send('POST', '/auth/logout'), expect: '200 200 401 401 200 200 200 401 200 401 401', last: 4 },
};

const q = (query: string, variables?: Record<string, unknown>) => () => ({ query, variables });

/** Keyed `Query.field` / `Mutation.field` as the supergraph names them. */
export const GRAPHQL_MATRIX: Record<string, MatrixRow<GraphqlRequest>> = {
  'Query.me': { request: q('{ me { __typename } }'), expect: ACCOUNT },
  'Query.keys': { request: q('{ keys { __typename } }'), expect: ACCOUNT },
  'Query.usage': { request: q('{ usage { __typename } }'), expect: ACCOUNT },
  'Query.usageBreakdown': { request: q('{ usageBreakdown { __typename } }'), expect: ACCOUNT },
  'Query.oauthGrants': { request: q('{ oauthGrants { __typename } }'), expect: ACCOUNT },
  'Query.adminStats': { request: q('{ adminStats { __typename } }'), expect: ADMIN },
  'Query.adminUsers': { request: q('{ adminUsers(limit: 5) { __typename } }'), expect: ADMIN },
  'Query.adminUserEndpoints': { request: (w) => ({ query: 'query($id: String!) { adminUserEndpoints(userId: $id) { __typename } }', variables: { id: w.userIds.accountA } }), expect: ADMIN },
  'Query.adminFeedback': { request: q('{ adminFeedback(status: all) { __typename } }'), expect: ADMIN },
  'Query.adminAudit': { request: q('{ adminAudit { __typename } }'), expect: ADMIN },
  // the caller's own scope: every account (null for a non-partner), uncounted like `me`
  'Query.partnerScope': { request: q('{ partnerScope { __typename } }'), expect: ACCOUNT },
  'Query.adminPartner': { request: (w) => ({ query: 'query($id: ID!) { adminPartner(userId: $id) { __typename } }', variables: { id: w.userIds.partner } }), expect: ADMIN },
  'Query.sourceUsage': { request: q('{ sourceUsage(sources: ["DE/BGH"], from: "2026-01-01", to: "2026-01-31", granularity: WEEK) { __typename } }'), expect: ANALYTICS },
  'Query.countryUsage': { request: q('{ countryUsage(countries: ["DE"], from: "2026-01-01", to: "2026-01-31") { __typename } }'), expect: ANALYTICS },
  'Query.topDocuments': { request: q('{ topDocuments(source: "DE/BGH", from: "2026-01-01", to: "2026-01-31") { __typename } }'), expect: ANALYTICS },
  'Query.resolverOutcomes': { request: q('{ resolverOutcomes(countries: ["DE"], from: "2026-01-01", to: "2026-01-31") { __typename } }'), expect: ANALYTICS },
  'Query.plans': { request: q('{ plans { __typename } }'), expect: OPEN },
  'Query.checkoutDocuments': { request: q('{ checkoutDocuments(plan: professional) { __typename } }'), expect: OPEN },
  'Query.promo': { request: q('{ promo(code: "NOSUCHCODE") { __typename } }'), expect: ACCOUNT },
  'Query.billingStatus': { request: q('{ billingStatus { __typename } }'), expect: ACCOUNT },
  'Query.invoices': { request: q('{ invoices { __typename } }'), expect: ACCOUNT },
  'Query.autoTopup': { request: q('{ autoTopup { __typename } }'), expect: ACCOUNT },
  'Query.search': { request: q('{ search(input: { q: "Schadensersatz" }) { __typename } }'), expect: ACCOUNT },
  'Query.document': { request: q('{ document(source: "DE/GesetzeImInternet", sourceId: "bgb/823") { __typename } }'), expect: ACCOUNT },
  'Query.countries': { request: q('{ countries { __typename } }'), expect: OPEN },
  'Query.sources': { request: q('{ sources(country: "DE") { __typename } }'), expect: OPEN },
  'Query.filters': { request: q('{ filters(source: "DE/BGH") { __typename } }'), expect: OPEN },
  'Query.courts': { request: q('{ courts(country: "DE") { __typename } }'), expect: OPEN },
  'Query.stats': { request: q('{ stats { __typename } }'), expect: OPEN },
  'Query.manifest': { request: q('{ manifest { __typename } }'), expect: OPEN },
  'Query.resolve': { request: q('{ resolve(input: { reference: "§ 823 BGB", hintCountry: "DE" }) { __typename } }'), expect: ACCOUNT },
  'Query.resolveCoverage': { request: q('{ resolveCoverage { __typename } }'), expect: ACCOUNT },
  'Query.team': { request: q('{ team { __typename } }'), expect: ACCOUNT },
  // open like the invite link itself; an unknown token is NOT_FOUND for everyone
  'Query.teamInvite': { request: q('{ teamInvite(token: "not-a-token") { team_name } }'), expect: '404 404 404 404 404 404 404 401 404 401 404' },
  'Mutation.createKey': { request: q('mutation { createKey(name: "matrix") { __typename } }'), expect: ACCOUNT },
  'Mutation.renameKey': { request: async (w, c) => ({ query: 'mutation($id: ID!) { renameKey(id: $id, name: "renamed") { __typename } }', variables: { id: await keyOfA(w, c) } }), expect: A_ONLY },
  'Mutation.revokeKey': { request: async (w, c) => ({ query: 'mutation($id: ID!) { revokeKey(id: $id) { __typename } }', variables: { id: await keyOfA(w, c) } }), expect: A_ONLY },
  'Mutation.revokeOAuthGrant': { request: async (w, c) => ({ query: 'mutation($id: ID!) { revokeOAuthGrant(id: $id) { __typename } }', variables: { id: await grantOfA(w, c) } }), expect: A_ONLY },
  'Mutation.adminSetPlanOverride': { request: (w) => ({ query: 'mutation($id: String!) { adminSetPlanOverride(userId: $id, plan: null, reason: "matrix") { __typename } }', variables: { id: w.userIds.accountB } }), expect: ADMIN },
  'Mutation.adminEraseUser': { request: async (w) => ({ query: 'mutation($id: String!) { adminEraseUser(userId: $id, reason: "matrix") { __typename } }', variables: { id: await w.throwaway.account() } }), expect: ADMIN },
  'Mutation.adminSetPartner': { request: async (w) => ({ query: 'mutation($id: String!) { adminSetPartner(userId: $id, countries: ["DE"]) { __typename } }', variables: { id: await w.throwaway.account() } }), expect: ADMIN },
  'Mutation.adminRemovePartner': { request: async (w) => ({ query: 'mutation($id: String!) { adminRemovePartner(userId: $id) { __typename } }', variables: { id: await throwawayPartner(w) } }), expect: ADMIN },
  'Mutation.adminUpdateFeedback': { request: async (w) => ({ query: 'mutation($id: String!) { adminUpdateFeedback(reportId: $id, status: resolved, note: "matrix") { __typename } }', variables: { id: await w.throwaway.report() } }), expect: ADMIN },
  'Mutation.adminMarkFeedbackForwarded': {
    request: async (w) => ({ query: 'mutation($id: String!) { adminMarkFeedbackForwarded(reportId: $id, url: "https://github.com/worldwidelaw/legal-sources/issues/2") { __typename } }', variables: { id: await w.throwaway.report() } }),
    expect: ADMIN,
  },
  'Mutation.checkout': { request: q('mutation { checkout(input: { plan: developer_pro, interval: monthly, legalAccepted: true }) { __typename } }'), expect: CHECKOUT },
  'Mutation.verifyCheckout': { request: (w) => ({ query: 'mutation($id: String!) { verifyCheckout(sessionId: $id) { __typename } }', variables: { id: w.a.checkoutSessionId } }), expect: A_ONLY },
  'Mutation.creditTopupCheckout': { request: q('mutation { creditTopupCheckout(amountUsd: 10) { __typename } }'), expect: PAID_ONLY },
  'Mutation.setAutoTopup': { request: q('mutation { setAutoTopup(input: { enabled: false, thresholdUsd: 10, amountUsd: 10 }) { __typename } }'), expect: SUBSCRIBER },
  'Mutation.portalSession': { request: q('mutation { portalSession { __typename } }'), expect: ACCOUNT },
  'Mutation.setAudience': { request: q('mutation { setAudience(audience: developer) { __typename } }'), expect: FREE_ONLY },
  'Mutation.inviteMembers': { request: () => ({ query: 'mutation($e: [String!]!) { inviteMembers(emails: $e) { __typename } }', variables: { e: [fresh('invitee')] } }), expect: MANAGERS },
  'Mutation.revokeInvite': { request: async (w) => ({ query: 'mutation($id: String!) { revokeInvite(inviteId: $id) { __typename } }', variables: { id: await w.throwaway.invite() } }), expect: MANAGERS },
  'Mutation.setAllowedDomains': { request: q(`mutation { setAllowedDomains(domains: ["${TEAM_DOMAIN}"]) { __typename } }`), expect: MANAGERS },
  'Mutation.checkAllowedDomain': { request: q(`mutation { checkAllowedDomain(domain: "${TEAM_DOMAIN}") { __typename } }`), expect: MANAGERS },
  'Mutation.changeMemberRole': { request: async (w) => ({ query: 'mutation($id: String!) { changeMemberRole(memberUserId: $id, role: admin) { __typename } }', variables: { id: await w.throwaway.teamMember() } }), expect: OWNER },
  'Mutation.removeMember': { request: async (w) => ({ query: 'mutation($id: String!) { removeMember(memberUserId: $id) { __typename } }', variables: { id: await w.throwaway.teamMember() } }), expect: REMOVE_MEMBER },
  'Mutation.setSeats': { request: q('mutation { setSeats(quantity: 100) { __typename } }'), expect: OWNER },
  'Mutation.rotateJoinLink': { request: q('mutation { rotateJoinLink { __typename } }'), expect: MANAGERS, last: 1 },
  'Mutation.disableJoinLink': { request: q('mutation { disableJoinLink { __typename } }'), expect: MANAGERS, last: 1 },
  'Mutation.joinTeam': { request: async (w) => ({ query: 'mutation($t: String!) { joinTeam(token: $t) { __typename } }', variables: { t: await w.throwaway.joinToken() } }), expect: ACCOUNT, last: 2 },
};
