/**
 * The teams subgraph through the supergraph gateway of a real platform (PostgreSQL and PGlite),
 * the team bought through the local Stripe server: the Workspace entity with members, invites
 * and join link, the mutations with the REST rules, one rate-limit budget with REST per account,
 * `User.workspace` across subgraphs, and the SQL statements a 50-member team query runs (counted at the ORM's connection).
 */
import Stripe from 'stripe';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { OPERATION_LIMITS } from '../../src/modules/usage/operation-limits.js';
import { startPlatform, type Platform } from '../../src/platform.js';
import { MUTATION_RATE_LIMIT } from './teams.resolver.js';
import { call, cookieFrom } from '../../test/helpers/http.js';
import { startLocalStripe, type LocalStripe } from '../../test/helpers/stripe-server.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase, countStatements } from '../../test/helpers/test-databases.js';
import { makeTestDataDir } from '../../test/helpers/pglite-template.js';

const WEBHOOK_SECRET = 'whsec_teams_gql';
const signer = new Stripe('sk_test_signer');

const TEAM_QUERY = `{ team { id name plan seat_limit seats_used role allowed_domains
  members { user_id role joined_at requests_in_period user { id email name } }
  invites { id email } join_link { token } } }`;

describe.each(TEST_BACKENDS)('teams subgraph through the gateway (%s)', (backend) => {
  let platform: Platform;
  let stripeServer: LocalStripe;
  let db: TestDatabase | null = null;
  let url: string;
  let seq = 0;
  const gql = (query: string, cookie?: string, variables?: Record<string, unknown>) => call(`${url}/graphql`, 'POST', { query, variables }, cookie ? { cookie } : undefined);

  async function signIn(prefix: string): Promise<{ id: string; cookie: string }> {
    const res = await call(`${url}/auth/dev-login`, 'POST', { email: `${prefix}${++seq}-${backend}@example.org` });
    return { id: res.body.id, cookie: cookieFrom(res.headers, 'session')! };
  }

  async function buyTeam(seats: number): Promise<{ id: string; cookie: string }> {
    const owner = await signIn('owner');
    const checkout = await call(`${url}/v1/billing/checkout`, 'POST', { plan: 'professional', quantity: seats, workspace_name: `Team of ${seats}`, legal_accepted: true }, { cookie: owner.cookie });
    const session = stripeServer.completeSession(/\/c\/pay\/(cs_test_\w+)$/.exec(checkout.body.checkout_url)![1]!);
    const payload = JSON.stringify(stripeServer.event('checkout.session.completed', session));
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const res = await fetch(`${url}/v1/billing/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    expect(res.status).toBe(200);
    return owner;
  }

  async function fill(owner: { cookie: string }, members: number): Promise<void> {
    const token = (await gql('mutation { rotateJoinLink { join_link { token } } }', owner.cookie)).body.data.rotateJoinLink.join_link.token;
    for (let i = 0; i < members; i++) {
      const m = await signIn('m');
      expect((await gql('mutation($t: String!) { joinTeam(token: $t) { joined } }', m.cookie, { t: token })).body.data.joinTeam.joined).toBe(true);
    }
  }

  /** The SQL statements the platform's connection executed while `work` ran. */
  const statementsOf = (work: () => Promise<unknown>) => countStatements(platform.orm, work);

  beforeAll(async () => {
    stripeServer = await startLocalStripe();
    if (backend === 'postgresql') db = await openTestDatabase('postgresql');
    const dataDir = await makeTestDataDir('teams-subgraph-', backend);
    platform = await startPlatform(
      loadConfig({
        DATA_DIR: dataDir,
        INGEST_ON_START: 'false',
        PORT: '0',
        EMBEDDER: 'none',
        DEV_LOGIN: 'true',
        STRIPE_SECRET_KEY: 'sk_test_gql',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripeServer.url,
        ...(db ? { DATABASE_URL: String(db.orm.config.get('clientUrl')) } : {}),
      }),
      createLogger('silent'),
    );
    url = platform.url!;
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
    await db?.dispose();
    await stripeServer?.stop();
  });

  it('serves the workspace, its members and invites; the mutations keep the REST rules and codes', async () => {
    expect((await gql('{ team { id } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const alone = await signIn('alone');
    expect((await gql('{ team { id } }', alone.cookie)).body.data.team).toBeNull();
    const owner = await buyTeam(3);
    const invited = await gql('mutation { inviteMembers(emails: ["gql-invitee@example.org"]) { invites { id email } skipped { email reason } } }', owner.cookie);
    expect(invited.body.data.inviteMembers).toEqual({ invites: [{ id: expect.any(String), email: 'gql-invitee@example.org' }], skipped: [] });
    const bad = await gql('mutation { inviteMembers(emails: ["ok@example.org", "nope"]) { invites { id } } }', owner.cookie);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [expect.objectContaining({ loc: ['emails', 1] })] });
    await fill(owner, 1);
    const view = (await gql(TEAM_QUERY, owner.cookie)).body.data.team;
    expect(view).toMatchObject({ name: 'Team of 3', plan: 'professional', seat_limit: 3, seats_used: 3, role: 'owner', invites: [{ email: 'gql-invitee@example.org' }], join_link: { token: expect.any(String) } });
    expect(view.members.map((m: any) => [m.role, m.user.email.startsWith('owner') || m.user.email.startsWith('m'), m.requests_in_period])).toEqual([['owner', true, 0], ['member', true, 0]]);
    // a member sees no join link and may not invite (403 -> FORBIDDEN)
    const memberId = view.members[1].user_id;
    const memberCookie = (await call(`${url}/auth/dev-login`, 'POST', { email: view.members[1].user.email })).headers;
    const asMember = cookieFrom(memberCookie, 'session')!;
    expect((await gql('{ team { join_link { token } } }', asMember)).body.data.team.join_link).toBeNull();
    expect((await gql('mutation { inviteMembers(emails: ["x@example.org"]) { invites { id } } }', asMember)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // a member's usage carries its own count beside the pooled one, as GET /v1/usage/me does
    const restUsage = (await call(`${url}/v1/usage/me`, 'GET', undefined, { cookie: asMember })).body;
    expect(restUsage.my_requests_in_period).toEqual(expect.any(Number));
    const graphUsage = (await gql('{ usage { requests_in_period my_requests_in_period } }', asMember)).body;
    expect(graphUsage).toEqual({ data: { usage: { requests_in_period: restUsage.requests_in_period, my_requests_in_period: restUsage.my_requests_in_period } } });
    // User.workspace across subgraphs: the accounts subgraph's me, extended here
    const me = await gql('{ me { user { id workspace { id seat_limit members { role } } } } }', owner.cookie);
    expect(me.body.data.me.user.workspace).toEqual({ id: view.id, seat_limit: 3, members: [{ role: 'owner' }, { role: 'member' }] });
    expect((await gql('{ me { user { workspace { id } } } }', alone.cookie)).body.data.me.user.workspace).toBeNull();
    expect((await gql('mutation($id: String!) { changeMemberRole(memberUserId: $id, role: admin) { role } }', owner.cookie, { id: memberId })).body.data.changeMemberRole.role).toBe('admin');
    expect((await gql('mutation($id: String!) { removeMember(memberUserId: $id) { status } }', owner.cookie, { id: memberId })).body.data.removeMember.status).toBe('removed');
    expect((await gql('mutation { setSeats(quantity: 0) { quantity } }', owner.cookie)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('counts a team mutation in one budget per account over REST and GraphQL (the service limit; @rateLimit only documents it)', async () => {
    const { limit } = OPERATION_LIMITS.team_join_link_rotate;
    expect(MUTATION_RATE_LIMIT).toEqual({ limit, duration: OPERATION_LIMITS.team_join_link_rotate.durationSeconds });
    const owner = await buyTeam(2);
    const overRest = Math.floor(limit / 2);
    for (let i = 0; i < overRest; i++) expect((await call(`${url}/v1/team/join-link`, 'POST', undefined, { cookie: owner.cookie })).status).toBe(200);
    for (let i = overRest; i < limit; i++) expect((await gql('mutation { rotateJoinLink { join_link { token } } }', owner.cookie)).body.errors).toBeUndefined();
    // the budget is spent: the next call is refused by either door, with when to try again
    const rest = await call(`${url}/v1/team/join-link`, 'POST', undefined, { cookie: owner.cookie });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ detail: `Too many requests: at most ${limit} team_join_link_rotate requests per 60 seconds` });
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const graph = await gql('mutation { rotateJoinLink { join_link { token } } }', owner.cookie);
    expect(graph.body.errors[0]).toMatchObject({ message: rest.body.detail, extensions: { code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) } });
    // the join link did not change with the refused calls
    const token = (await gql('{ team { join_link { token } } }', owner.cookie)).body.data.team.join_link.token;
    expect((await call(`${url}/v1/team`, 'GET', undefined, { cookie: owner.cookie })).body.join_link.token).toBe(token);
    // another account, and another operation of the same account, have budgets of their own
    const other = await buyTeam(2);
    expect((await call(`${url}/v1/team/join-link`, 'POST', undefined, { cookie: other.cookie })).status).toBe(200);
    expect((await gql('mutation { rotateJoinLink { join_link { token } } }', other.cookie)).body.errors).toBeUndefined();
    expect((await call(`${url}/v1/team/join-link`, 'DELETE', undefined, { cookie: owner.cookie })).status).toBe(200);
  });

  it('runs the same bounded number of SQL statements for a team of 3 and a team of 50', async () => {
    const small = await buyTeam(3);
    await fill(small, 2);
    const large = await buyTeam(50);
    await fill(large, 49);
    let members = 0;
    const smallCount = await statementsOf(async () => {
      members = (await gql(TEAM_QUERY, small.cookie)).body.data.team.members.length;
    });
    expect(members).toBe(3);
    const largeCount = await statementsOf(async () => {
      const res = await gql(TEAM_QUERY, large.cookie);
      members = res.body.data.team.members.length;
      expect(res.body.data.team.members.every((m: any) => m.user?.email)).toBe(true);
    });
    expect(members).toBe(50);
    // printed for the record: authentication, the workspace, members, invites, domains, owner, users, usage
    console.log(`teams subgraph (${backend}): ${smallCount} SQL statements for 3 members, ${largeCount} for 50`);
    expect(largeCount).toBe(smallCount);
    expect(largeCount).toBeLessThanOrEqual(12);
  }, 120_000);
});
