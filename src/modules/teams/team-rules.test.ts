/** The team rules without a database: roles, seats, invites, join tokens and the domain auto-join. */
import { DomainError } from '../../errors.js';
import {
  assertInvitesFit,
  assertMayChangeSeats,
  assertMayRemove,
  assertRole,
  assertRoleChangeable,
  assertSeatQuantity,
  autoJoinStep,
  hasSeatForJoiner,
  inviteIsFor,
  inviteStillValid,
  isManager,
  joinElsewhereRefusal,
  MANAGER_ROLES,
  periodStartOf,
  sortInvitees,
  type Role,
} from './team-rules.js';

/** The error `work` throws (its code and message), or null when it does not throw. */
function refusal(work: () => unknown): { code: string; message: string } | null {
  try {
    work();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('team rules: roles', () => {
  it('lets owner and admins manage the workspace, not members', () => {
    expect(MANAGER_ROLES).toEqual(['owner', 'admin']);
    expect([isManager('owner'), isManager('admin'), isManager('member')]).toEqual([true, true, false]);
  });

  it('refuses an action to a role not named (403), and in the personal workspace says so', () => {
    expect(assertRole({ role: 'admin' as Role, tag: 1 }, MANAGER_ROLES, 'invite')).toEqual({ role: 'admin', tag: 1 });
    expect(refusal(() => assertRole({ role: 'member' as Role }, MANAGER_ROLES, 'invite'))).toEqual({ code: 'forbidden', message: "Only the workspace's owner or admin may invite" });
    expect(refusal(() => assertRole(null, ['owner'], 'change roles'))).toEqual({
      code: 'forbidden',
      message: "Only a team workspace's owner may change roles; you are in your personal workspace",
    });
  });

  it('lets only the owner change the seats', () => {
    expect(assertMayChangeSeats({ role: 'owner' as Role })).toEqual({ role: 'owner' });
    for (const membership of [null, { role: 'admin' as Role }, { role: 'member' as Role }]) {
      expect(refusal(() => assertMayChangeSeats(membership))?.code).toBe('forbidden');
    }
  });

  it("never changes the owner's role (409); anyone else's may change", () => {
    expect(refusal(() => assertRoleChangeable('owner'))?.code).toBe('conflict');
    expect(refusal(() => assertRoleChangeable('admin'))).toBeNull();
    expect(refusal(() => assertRoleChangeable('member'))).toBeNull();
  });

  it('lets anyone but the owner leave; the owner removes anyone, an admin members only, a member nobody', () => {
    const who = (userId: string, role: Role) => ({ userId, role });
    const cases: [Role, Role, string | null][] = [
      // actor, target (another account), expected refusal code
      ['owner', 'admin', null],
      ['owner', 'member', null],
      ['admin', 'member', null],
      ['admin', 'admin', 'forbidden'],
      ['admin', 'owner', 'forbidden'],
      ['member', 'member', 'forbidden'],
      ['member', 'owner', 'forbidden'],
    ];
    for (const [actor, target, code] of cases) {
      expect([actor, target, refusal(() => assertMayRemove(who('a', actor), who('b', target)))?.code ?? null]).toEqual([actor, target, code]);
    }
    expect(refusal(() => assertMayRemove(who('a', 'owner'), who('a', 'owner')))?.code).toBe('conflict');
    expect(refusal(() => assertMayRemove(who('a', 'admin'), who('a', 'admin')))).toBeNull();
    expect(refusal(() => assertMayRemove(who('a', 'member'), who('a', 'member')))).toBeNull();
  });
});

describe('team rules: seats', () => {
  it('fits new invites into the free seats all or nothing', () => {
    expect(refusal(() => assertInvitesFit(2, 5, 3))).toBeNull();
    expect(refusal(() => assertInvitesFit(3, 5, 3))).toEqual({
      code: 'conflict',
      message: 'Not enough seats: 2 seat(s) free for 3 new invite(s); nothing was sent. Add seats (POST /v1/team/seats) or remove invites first',
    });
    // a workspace over its limit (seats lowered by the provider) shows 0 free, not a negative number
    expect(refusal(() => assertInvitesFit(1, 2, 4))?.message).toMatch(/^Not enough seats: 0 seat\(s\) free for 1 new invite/);
    // kept as it was: over its limit, even a request whose addresses were all skipped is refused
    expect(refusal(() => assertInvitesFit(0, 2, 4))?.code).toBe('conflict');
    expect(refusal(() => assertInvitesFit(0, 2, 2))).toBeNull();
  });

  it('lets a joiner through an invite take the seat its invite reserved', () => {
    // 3 seats: 2 members + 1 pending invite
    expect(hasSeatForJoiner(3, 3, true)).toBe(true);
    expect(hasSeatForJoiner(3, 3, false)).toBe(false);
    expect(hasSeatForJoiner(2, 3, false)).toBe(true);
  });

  it('refuses a seat quantity below the seats in use (members and pending invites)', () => {
    expect(refusal(() => assertSeatQuantity(4, 4))).toBeNull();
    expect(refusal(() => assertSeatQuantity(3, 4))).toEqual({ code: 'conflict', message: '4 seat(s) are in use (members and pending invites): remove some before going down to 3' });
  });
});

describe('team rules: invites and joining', () => {
  it('folds the asked addresses and skips members, pending invites and repeats, in the order asked', () => {
    const { fresh, skipped } = sortInvitees([' Ann@Firm.example ', 'bob@firm.example', 'cy@firm.example', 'ANN@firm.example', 'dee@firm.example', 'Dee@firm.example'], new Set(['bob@firm.example']), new Set(['cy@firm.example']));
    expect(fresh).toEqual(['ann@firm.example', 'dee@firm.example']);
    expect(skipped).toEqual([
      { email: 'bob@firm.example', reason: 'already_member' },
      { email: 'cy@firm.example', reason: 'already_invited' },
      { email: 'ann@firm.example', reason: 'duplicate' },
      { email: 'dee@firm.example', reason: 'duplicate' },
    ]);
    // a member asked twice is reported as a member both times (membership is the stronger reason)
    expect(sortInvitees(['bob@firm.example', 'Bob@firm.example'], new Set(['bob@firm.example']), new Set()).skipped.map((s) => s.reason)).toEqual(['already_member', 'already_member']);
  });

  it('takes an invite once, before it expires', () => {
    const now = Date.UTC(2026, 10, 27);
    expect(inviteStillValid({ accepted_at: null, expires_at: new Date(now + 1) }, now)).toBe(true);
    expect(inviteStillValid({ accepted_at: null, expires_at: new Date(now) }, now)).toBe(false);
    expect(inviteStillValid({ accepted_at: new Date(now - 1), expires_at: new Date(now + 1000) }, now)).toBe(false);
  });

  it('lets an invite in only the account whose verified address it was sent to', () => {
    const invite = { email_lower: 'ann@firm.example' };
    expect(inviteIsFor(invite, { email_lower: 'ann@firm.example', email_verified: true })).toBe(true);
    expect(inviteIsFor(invite, { email_lower: 'ann@firm.example', email_verified: false })).toBe(false);
    expect(inviteIsFor(invite, { email_lower: 'bob@firm.example', email_verified: true })).toBe(false);
    expect(inviteIsFor(invite, null)).toBe(false);
  });

  it('refuses to join from another team workspace or from an own paid plan, and says which', () => {
    expect(joinElsewhereRefusal(null, { otherMembers: 0, ownPlanPaid: false })).toBeNull();
    expect(joinElsewhereRefusal(null, { otherMembers: 0, ownPlanPaid: true })).toBe('You have your own paid subscription: cancel it before joining a team workspace');
    expect(joinElsewhereRefusal('member', { otherMembers: 0, ownPlanPaid: false })).toBe('You belong to another team workspace: leave it first');
    expect(joinElsewhereRefusal('admin', { otherMembers: 3, ownPlanPaid: false })).toBe('You belong to another team workspace: leave it first');
    expect(joinElsewhereRefusal('owner', { otherMembers: 2, ownPlanPaid: false })).toBe('You own a team workspace with other members: remove them or hand it over first');
    expect(joinElsewhereRefusal('owner', { otherMembers: 0, ownPlanPaid: false })).toBe('You own a paid team workspace: cancel its subscription first');
  });
});

describe('team rules: domain auto-join at sign-in', () => {
  const facts = { inWorkspace: false, ownPlanPaid: false, seatsUsed: 1, seatLimit: 3 };

  it('joins an account in no workspace and without its own paid plan when a seat is free', () => {
    expect(autoJoinStep(facts)).toBe('join');
  });

  it('stops (joins nothing anywhere) for an account already in a workspace or paying for its own plan', () => {
    expect(autoJoinStep({ ...facts, inWorkspace: true })).toBe('stop');
    expect(autoJoinStep({ ...facts, ownPlanPaid: true })).toBe('stop');
    // even where no seat is free: the account is settled, not waiting for a seat
    expect(autoJoinStep({ ...facts, ownPlanPaid: true, seatsUsed: 3 })).toBe('stop');
  });

  it('moves on to the next workspace holding the domain when this one is full (pending invites count)', () => {
    expect(autoJoinStep({ ...facts, seatsUsed: 3 })).toBe('full');
    expect(autoJoinStep({ ...facts, seatsUsed: 4 })).toBe('full');
  });
});

describe('team rules: the usage period', () => {
  it("counts members' requests from the billing period's start, else over the rolling window", () => {
    expect(periodStartOf({ start: 1_000 }, 50_000, 30_000)).toBe(1_000);
    expect(periodStartOf(null, 50_000, 30_000)).toBe(20_000);
  });
});
