/**
 * The sign-in auto-join against a real database (PostgreSQL and PGlite): only a verified claim
 * whose record was seen recently enough lets an account in, and only one in no team workspace,
 * without its own paid plan, when a seat is free. Never fails (the sign-in goes on).
 */
import type { TeamDomainSettings } from '../../config.js';
import { addMember, createAccount, createTeam, storeDomainClaim, storeInvite } from '../../../test/helpers/team-fixtures.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { AllowedDomainsService } from './allowed-domains.service.js';
import { DomainVerifier } from './domain-verifier.js';
import { findMembership } from './workspace.queries.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import { OperationLimiter } from '../usage/operation-limits.js';

const HOUR = 3_600_000;
const settings: TeamDomainSettings = { recheckMs: 24 * HOUR, graceMs: 72 * HOUR, retryMs: HOUR, sweepMs: 0, sweepBatch: 10 };

describe.each(TEST_BACKENDS)('domain auto-join at sign-in (%s)', (backend) => {
  let db: TestDatabase;
  let domains: AllowedDomainsService;
  let seq = 0;
  const errors: unknown[] = [];
  const domain = (name: string) => `${name}${++seq}-${backend}.example`;
  const workspaceOf = async (userId: string) => (await findMembership(db.orm.em.fork(), userId, { lock: false }))?.workspace.id ?? null;

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    // no look-up happens here: the claims are stored with their proofs
    const verifier = new DomainVerifier({ orm: db.orm, lookup: async () => ({ kind: 'error', code: 'ENOTFOUND' }), settings, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    domains = new AllowedDomainsService({ orm: db.orm, verifier, limits: new OperationLimiter(new MemoryCounterStore()), logger: { info: () => undefined, error: (_message, error) => void errors.push(error) } });
  });

  afterAll(async () => {
    await db?.dispose();
  });

  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it('joins the workspace holding the domain with a recent proof', async () => {
    const firm = domain('firm');
    const team = await createTeam(db.orm, `owner@${firm}`, 3);
    await storeDomainClaim(db.orm, team.id, firm, { lastSeenAt: new Date(Date.now() - HOUR) });
    const ann = await createAccount(db.orm, `Ann@${firm.toUpperCase()}`);
    await domains.autoJoin({ id: ann.id, email: ann.email });
    expect(await workspaceOf(ann.id)).toBe(team.id);
  });

  it('joins nobody through a pending claim or a proof older than the re-check and grace allow', async () => {
    const pending = domain('pending');
    const stale = domain('stale');
    const a = await createTeam(db.orm, `owner@${pending}`, 3);
    const b = await createTeam(db.orm, `owner@${stale}`, 3);
    await storeDomainClaim(db.orm, a.id, pending, 'pending');
    await storeDomainClaim(db.orm, b.id, stale, { lastSeenAt: new Date(Date.now() - settings.recheckMs - settings.graceMs - HOUR) });
    for (const at of [pending, stale]) {
      const user = await createAccount(db.orm, `someone@${at}`);
      await domains.autoJoin({ id: user.id, email: user.email });
      expect(await workspaceOf(user.id)).toBeNull();
    }
  });

  it('joins nobody when no seat is free (pending invites hold seats)', async () => {
    const full = domain('full');
    const team = await createTeam(db.orm, `owner@${full}`, 2);
    await storeDomainClaim(db.orm, team.id, full, { lastSeenAt: new Date() });
    await storeInvite(db.orm, team.id, team.owner.id, `invited@${full}`, new Date(Date.now() + HOUR));
    const user = await createAccount(db.orm, `late@${full}`);
    await domains.autoJoin({ id: user.id, email: user.email });
    expect(await workspaceOf(user.id)).toBeNull();
  });

  it('leaves an account that pays for its own plan or is in another team where it is', async () => {
    const firm = domain('firm');
    const team = await createTeam(db.orm, `owner@${firm}`, 10);
    await storeDomainClaim(db.orm, team.id, firm, { lastSeenAt: new Date() });
    const payer = await createAccount(db.orm, `payer@${firm}`, { plan: 'developer_pro' });
    await domains.autoJoin({ id: payer.id, email: payer.email });
    expect(await workspaceOf(payer.id)).toBeNull();
    const elsewhere = await createTeam(db.orm, `other@${domain('other')}`, 3);
    const member = await createAccount(db.orm, `member@${firm}`);
    await addMember(db.orm, elsewhere.id, member.id);
    await domains.autoJoin({ id: member.id, email: member.email });
    expect(await workspaceOf(member.id)).toBe(elsewhere.id);
  });
});
