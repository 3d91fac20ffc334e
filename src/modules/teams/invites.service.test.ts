/**
 * Invites, the join link and joining against a real database (PostgreSQL and PGlite): seats are
 * members plus pending invites, an invite takes the seat it reserved, only its addressee may use
 * it, a rotated link stops working, and two joins for the last seat cannot both win.
 */
import type { MailMessage, Mailer } from '../accounts/mailer.js';
import { DomainError } from '../../errors.js';
import { addMember, codeOf, createAccount, createTeam, storeInvite } from '../../../test/helpers/team-fixtures.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { InvitesService } from './invites.service.js';
import { TeamViewsService } from './team-views.service.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import { OperationLimiter } from '../usage/operation-limits.js';

const BASE_URL = 'https://search.example';
const DAY = 24 * 3_600_000;

describe.each(TEST_BACKENDS)('invites and joining (%s)', (backend) => {
  let db: TestDatabase;
  let invites: InvitesService;
  let views: TeamViewsService;
  let seq = 0;
  const sent: MailMessage[] = [];
  const mailer: Mailer = { send: async (message) => void sent.push(message), close: () => undefined };
  const address = (name: string) => `${name}${++seq}@firm-${backend}.example`;
  const tokenIn = (mail: MailMessage) => new URL(/https:\S+/.exec(mail.text)![0]).searchParams.get('token')!;

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    invites = new InvitesService({ orm: db.orm, limits: new OperationLimiter(new MemoryCounterStore()), mailer,
      baseUrl: BASE_URL,
      logger: { error: () => undefined },
      // the invite proof (POST /auth/verify-email/invite) is tested over HTTP in test/dashboard-front-door.e2e.test.ts
      sessions: { issueSession: () => Promise.reject(new Error('no sessions in this test')) },
      outbox: { enqueue: () => true },
    });
    views = new TeamViewsService({ orm: db.orm, baseUrl: BASE_URL, verifier: { validAfter: () => new Date(0) } });
  });

  afterAll(async () => {
    await db?.dispose();
  });

  it('counts pending invites as seats, not expired ones; all or nothing when they do not fit', async () => {
    const team = await createTeam(db.orm, address('owner'), 3);
    await storeInvite(db.orm, team.id, team.owner.id, address('pending'), new Date(Date.now() + DAY));
    await storeInvite(db.orm, team.id, team.owner.id, address('expired'), new Date(Date.now() - 1));
    const before = sent.length;
    // owner + one pending invite: one seat free
    expect(await codeOf(invites.invite(team.owner.ctx, { emails: [address('a'), address('b')] }))).toBe('conflict');
    expect(sent.length).toBe(before);
    const answer = await invites.invite(team.owner.ctx, { emails: [address('c')] });
    expect(answer.invites).toHaveLength(1);
    expect(sent.length).toBe(before + 1);
    const record = await views.team(team.owner.ctx);
    expect(record.workspace).toMatchObject({ seat_limit: 3, seats_used: 3 });
    expect(record.invites).toHaveLength(2);
  });

  it('lets the invited account join on the seat its invite reserved, once', async () => {
    const team = await createTeam(db.orm, address('owner'), 2);
    const bob = await createAccount(db.orm, address('bob'));
    await invites.invite(team.owner.ctx, { emails: [bob.email.toUpperCase()] });
    const token = tokenIn(sent.at(-1)!);
    // the workspace is full now (owner + invite), yet the invite's own seat is bob's
    expect(await invites.join(bob.ctx, { token })).toEqual({ workspace_id: team.id, name: expect.any(String), role: 'member', joined: true });
    expect(await invites.join(bob.ctx, { token })).toMatchObject({ joined: false });
    expect(await codeOf(invites.invite(team.owner.ctx, { emails: [address('late')] }))).toBe('conflict');
    expect((await views.team(team.owner.ctx)).workspace.seats_used).toBe(2);
  });

  it('refuses an invite to anyone but the verified owner of the address it was sent to (403)', async () => {
    const team = await createTeam(db.orm, address('owner'), 5);
    const dan = await createAccount(db.orm, address('dan'), { verified: false });
    const eve = await createAccount(db.orm, address('eve'));
    await invites.invite(team.owner.ctx, { emails: [dan.email] });
    const token = tokenIn(sent.at(-1)!);
    expect(await codeOf(invites.join(eve.ctx, { token }))).toBe('forbidden');
    expect(await codeOf(invites.join(dan.ctx, { token }))).toBe('forbidden');
    expect(await codeOf(invites.join(eve.ctx, { token: 'no-such-token' }))).toBe('not_found');
  });

  it('lets owner and admins rotate and disable the join link; a rotated or disabled link stops working', async () => {
    const team = await createTeam(db.orm, address('owner'), 10);
    const admin = await createAccount(db.orm, address('admin'));
    const member = await createAccount(db.orm, address('member'));
    await addMember(db.orm, team.id, admin.id, 'admin');
    await addMember(db.orm, team.id, member.id);
    const first = (await invites.rotateJoinLink(team.owner.ctx)).join_link!;
    expect(first.url).toBe(`${BASE_URL}/dashboard/team/join?token=${encodeURIComponent(first.token)}`);
    const second = (await invites.rotateJoinLink(admin.ctx)).join_link!;
    expect(await codeOf(invites.rotateJoinLink(member.ctx))).toBe('forbidden');
    const joiner = await createAccount(db.orm, address('joiner'));
    expect(await codeOf(invites.join(joiner.ctx, { token: first.token }))).toBe('not_found');
    expect(await invites.join(joiner.ctx, { token: second.token })).toMatchObject({ joined: true });
    await invites.disableJoinLink(team.owner.ctx);
    expect(await codeOf(invites.join((await createAccount(db.orm, address('late'))).ctx, { token: second.token }))).toBe('not_found');
    // members see no link at all; managers see null once disabled
    expect('join_link' in (await views.team(member.ctx))).toBe(false);
    expect((await views.team(admin.ctx)).join_link).toBeNull();
  });

  it('refuses an account that pays for its own plan or belongs to another team (409)', async () => {
    const team = await createTeam(db.orm, address('owner'), 10);
    const link = (await invites.rotateJoinLink(team.owner.ctx)).join_link!;
    const payer = await createAccount(db.orm, address('payer'), { plan: 'developer_pro' });
    expect(await codeOf(invites.join(payer.ctx, { token: link.token }))).toBe('conflict');
    const other = await createTeam(db.orm, address('other-owner'), 3);
    expect(await codeOf(invites.join(other.owner.ctx, { token: link.token }))).toBe('conflict');
  });

  it('lets only one of two concurrent joins take the last seat', async () => {
    const team = await createTeam(db.orm, address('owner'), 2);
    const link = (await invites.rotateJoinLink(team.owner.ctx)).join_link!;
    const [a, b] = [await createAccount(db.orm, address('a')), await createAccount(db.orm, address('b'))];
    const outcomes = await Promise.allSettled([invites.join(a.ctx, { token: link.token }), invites.join(b.ctx, { token: link.token })]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(DomainError);
    expect(refused.reason.code).toBe('conflict');
    expect((await views.team(team.owner.ctx)).workspace.seats_used).toBe(2);
  });
});
