/**
 * Membership against a real database (PostgreSQL and PGlite): the authenticator's team terms,
 * role changes, leaving and removing, and the seat quantity the owner may ask billing for.
 */
import { addMember, codeOf, createAccount, createTeam, storeInvite } from '../../../test/helpers/team-fixtures.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { MembershipService, type SeatBilling } from './membership.service.js';
import { WorkspaceEntity } from './workspace.entity.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import { OperationLimiter } from '../usage/operation-limits.js';

describe.each(TEST_BACKENDS)('membership (%s)', (backend) => {
  let db: TestDatabase;
  let membership: MembershipService;
  let seq = 0;
  const asked: { owner: string; quantity: number }[] = [];
  const address = (name: string) => `${name}${++seq}@members-${backend}.example`;

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    // billing as its webhook leaves it: the workspace's seat limit follows the quantity asked
    const billing: SeatBilling = {
      changeSeatQuantity: async (_ctx, owner, quantity) => {
        asked.push({ owner, quantity });
        await db.orm.em.fork().nativeUpdate(WorkspaceEntity, { owner_user_id: owner }, { seat_limit: quantity });
      },
    };
    membership = new MembershipService({ orm: db.orm, billing, limits: new OperationLimiter(new MemoryCounterStore()) });
  });

  afterAll(async () => {
    await db?.dispose();
  });

  it("gives a member the workspace's terms: the owner's plan and at least one seat; nothing outside a team", async () => {
    const team = await createTeam(db.orm, address('owner'), 4);
    const ann = await createAccount(db.orm, address('ann'));
    await addMember(db.orm, team.id, ann.id);
    expect(await membership.membershipOf(ann.id)).toEqual({ workspaceId: team.id, plan: 'professional', seats: 4, billingPeriod: null });
    expect(await membership.membershipOf((await createAccount(db.orm, address('solo'))).id)).toBeNull();
  });

  it('lets the owner alone change roles, never its own', async () => {
    const team = await createTeam(db.orm, address('owner'), 4);
    const ann = await createAccount(db.orm, address('ann'));
    await addMember(db.orm, team.id, ann.id);
    expect(await membership.changeRole(team.owner.ctx, ann.id, { role: 'admin' })).toEqual({ user_id: ann.id, role: 'admin' });
    expect(await codeOf(membership.changeRole(ann.ctx, team.owner.id, { role: 'member' }))).toBe('forbidden');
    expect(await codeOf(membership.changeRole(team.owner.ctx, team.owner.id, { role: 'admin' }))).toBe('conflict');
    // another workspace's member is not found, not forbidden
    const stranger = await createAccount(db.orm, address('stranger'));
    expect(await codeOf(membership.changeRole(team.owner.ctx, stranger.id, { role: 'admin' }))).toBe('not_found');
  });

  it('lets a member leave and an admin remove members but not admins', async () => {
    const team = await createTeam(db.orm, address('owner'), 5);
    const [admin, other, ann] = [await createAccount(db.orm, address('admin')), await createAccount(db.orm, address('other')), await createAccount(db.orm, address('ann'))];
    await addMember(db.orm, team.id, admin.id, 'admin');
    await addMember(db.orm, team.id, other.id, 'admin');
    await addMember(db.orm, team.id, ann.id);
    expect(await codeOf(membership.removeMember(admin.ctx, other.id))).toBe('forbidden');
    expect(await membership.removeMember(admin.ctx, ann.id)).toEqual({ status: 'removed', user_id: ann.id });
    expect(await membership.membershipOf(ann.id)).toBeNull();
    expect(await membership.removeMember(other.ctx, other.id)).toEqual({ status: 'removed', user_id: other.id });
    expect(await codeOf(membership.removeMember(team.owner.ctx, team.owner.id))).toBe('conflict');
  });

  it('asks billing for a seat quantity no lower than members plus pending invites; only the owner may', async () => {
    const team = await createTeam(db.orm, address('owner'), 3);
    const ann = await createAccount(db.orm, address('ann'));
    await addMember(db.orm, team.id, ann.id, 'admin');
    await storeInvite(db.orm, team.id, team.owner.id, address('invited'), new Date(Date.now() + 3_600_000));
    expect(await codeOf(membership.setSeats(ann.ctx, { quantity: 5 }))).toBe('forbidden');
    expect(await codeOf(membership.setSeats(team.owner.ctx, { quantity: 2 }))).toBe('conflict');
    expect(asked).toHaveLength(0);
    expect(await membership.setSeats(team.owner.ctx, { quantity: 3 })).toEqual({ quantity: 3, seat_limit: 3 });
    expect(await membership.setSeats(team.owner.ctx, { quantity: 7 })).toEqual({ quantity: 7, seat_limit: 7 });
    expect(asked).toEqual([
      { owner: team.owner.id, quantity: 3 },
      { owner: team.owner.id, quantity: 7 },
    ]);
  });
});
