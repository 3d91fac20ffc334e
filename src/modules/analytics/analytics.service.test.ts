/**
 * Partner analytics on a real database (PostgreSQL and PGlite): counted calls go through the
 * recorder (batched, written once), the queries roll them up under the privacy rule (4 accounts
 * withheld, 5 shown; the overlapping-ranges subtraction gives nothing away), scopes are enforced
 * (a partner of source A is refused source B) and ranges are bounded (400 days).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AccountCaller, contextsWithoutDatabase, requestContexts, type RequestContext, type RequestContexts } from '../../context.js';
import { DomainError, ValidationError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import type { CountedCall, UsageFacts } from '../usage/usage-guard.js';
import { AnalyticsRecorder } from './analytics-recorder.js';
import { addAnalyticsBatch } from './analytics-write.queries.js';
import { analyticsEventOf } from './analytics-events.js';
import { AnalyticsService } from './analytics.service.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import { OperationLimiter } from '../usage/operation-limits.js';
import { anonymiseKeptRows } from '../accounts/account-deletion.queries.js';
import { spillBatch } from '../usage/batch-spill.js';

let contexts: RequestContexts = contextsWithoutDatabase;

function caller(overrides: Partial<AccountCaller> = {}): AccountCaller {
  return { kind: 'api_key', ip: null, userId: randomUUID(), email: 'someone@example.org', plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null, ...overrides };
}
const asAdmin = (): RequestContext => contexts.forCaller(caller({ isAdmin: true }));

async function rejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return error instanceof DomainError ? error.code : `no DomainError: ${String(error)}`;
  }
}

const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
const searchFacts = (source: string, hits = 1, country = 'DE'): UsageFacts => ({
  search: { namespace: 'case_law', countries: [country], hitsBySource: { [source]: hits }, hitsByCountry: { [country]: hits }, hitsBySourceCountry: [{ source, country, hits }] },
});
const fetchFacts = (source: string, sourceId: string): UsageFacts => ({ documents: [{ source, sourceId, namespace: 'case_law', country: 'DE' }] });
const call = (who: AccountCaller, day: string, facts: UsageFacts | null, door?: 'mcp', endpoint = 'search'): CountedCall => ({ caller: who, endpoint, door, status: 200, facts, at: at(day) });

describe.each(TEST_BACKENDS)('partner analytics on %s', (backend) => {
  let db: TestDatabase;
  let recorder: AnalyticsRecorder;
  let service: AnalyticsService;
  /** Each test uses its own source, so they share the database without counting each other. */
  const source = () => `XX/Test${randomUUID().slice(0, 8)}`;
  const usage = (sources: string[], from: string, to: string, granularity?: string) => service.sourceUsage(asAdmin(), { sources, from, to, ...(granularity ? { granularity } : {}) });

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
    contexts = requestContexts(db.orm);
    recorder = new AnalyticsRecorder(db.orm, createLogger('silent'), { delayMs: 10_000 });
    service = new AnalyticsService({ pending: recorder, limits: new OperationLimiter(new MemoryCounterStore()) });
  });
  afterAll(async () => {
    await recorder?.close();
    await db?.dispose();
  });

  it('counts scripted calls of several accounts exactly, MCP tools included, each batch once', async () => {
    const src = source();
    const accounts = Array.from({ length: 6 }, () => caller());
    for (const [i, who] of accounts.entries()) {
      recorder.counted(call(who, '2026-03-02', searchFacts(src, 3)));
      if (i < 5) recorder.counted(call(who, '2026-03-02', fetchFacts(src, 'doc-1'), 'mcp', 'documents'));
      if (i === 0) recorder.counted(call(who, '2026-03-02', { resolution: { matchType: 'exact', source: src, country: 'DE' } }));
    }
    const [day] = (await usage([src], '2026-03-02', '2026-03-02')).periods;
    expect(day).toEqual({
      source: src,
      periodStart: '2026-03-02',
      periodEnd: '2026-03-02',
      searches: { value: 6, suppressed: false },
      hits: { value: 18, suppressed: false },
      documentsFetched: { value: 5, suppressed: false },
      resolutions: { value: null, suppressed: true }, // one account
      distinctAccounts: { value: 6, suppressed: false },
    });
    const [country] = (await service.countryUsage(asAdmin(), { countries: ['DE'], from: '2026-03-02', to: '2026-03-02' })).periods;
    expect(country).toMatchObject({
      country: 'DE',
      searches: { value: 6, suppressed: false }, // searches filtered by DE
      hits: { value: 18, suppressed: false },
      documentsFetched: { value: 5, suppressed: false },
      resolutions: { value: null, suppressed: true },
      distinctAccounts: { value: 6, suppressed: false },
    });
    const tools = await db.orm.em.fork().getConnection().execute<{ n: number }[]>(
      `select sum(calls)::int as n from analytics_account_day where kind = 'tool' and item = 'get_document' and account in (${accounts.map(() => '?').join(', ')})`,
      accounts.map((a) => a.userId),
    );
    expect(tools[0]!.n).toBe(5);

    // a batch written twice (a retry after an unknown outcome, a replayed spill file) is added once
    const event = analyticsEventOf(call(accounts[0]!, '2026-03-03', searchFacts(src)), randomUUID())!;
    await addAnalyticsBatch(db.orm.em.fork(), 'same-batch-key', [event]);
    await addAnalyticsBatch(db.orm.em.fork(), 'same-batch-key', [event]);
    const rows = await db.orm.em.fork().getConnection().execute<{ searches: number }[]>(`select searches from analytics_account_day where kind = 'source' and scope = ? and day = '2026-03-03'`, [src]);
    expect(rows).toEqual([{ searches: 1 }]);
  });

  it('withholds a value of 4 distinct accounts and shows it at 5', async () => {
    const src = source();
    for (let i = 0; i < 4; i++) recorder.counted(call(caller(), '2026-04-01', searchFacts(src, 2)));
    const four = (await usage([src], '2026-04-01', '2026-04-01')).periods[0]!;
    expect(four.searches).toEqual({ value: null, suppressed: true });
    expect(four.hits).toEqual({ value: null, suppressed: true });
    expect(four.distinctAccounts).toEqual({ value: null, suppressed: true });
    // one account searching many times is still one account
    const fifth = caller();
    recorder.counted(call(fifth, '2026-04-01', searchFacts(src, 2)));
    recorder.counted(call(fifth, '2026-04-01', searchFacts(src, 2)));
    const five = (await usage([src], '2026-04-01', '2026-04-01')).periods[0]!;
    expect(five.searches).toEqual({ value: 6, suppressed: false });
    expect(five.hits).toEqual({ value: 12, suppressed: false });
    expect(five.distinctAccounts).toEqual({ value: 5, suppressed: false });
  });

  it('gives nothing away to the overlapping-ranges subtraction: a day of one account adds nothing to any range', async () => {
    const src = source();
    const regulars = Array.from({ length: 5 }, () => caller());
    for (let d = 2; d <= 10; d++) for (const who of regulars) recorder.counted(call(who, `2026-05-${String(d).padStart(2, '0')}`, searchFacts(src)));
    const loner = caller();
    for (let i = 0; i < 7; i++) recorder.counted(call(loner, '2026-05-01', searchFacts(src, 3)));
    const [wide] = (await usage([src], '2026-05-01', '2026-05-10', 'MONTH')).periods;
    const [narrow] = (await usage([src], '2026-05-02', '2026-05-10', 'MONTH')).periods;
    // the wide range minus the narrow one would be the loner's activity: it is 0 for every measure
    expect(wide!.searches.value! - narrow!.searches.value!).toBe(0);
    expect(wide!.hits.value! - narrow!.hits.value!).toBe(0);
    expect(wide!.distinctAccounts.value! - narrow!.distinctAccounts.value!).toBe(0);
    expect(narrow!.searches).toEqual({ value: 45, suppressed: false });
    expect(narrow!.distinctAccounts).toEqual({ value: 5, suppressed: false });
    expect(wide!.distinctAccounts).toEqual({ value: 5, suppressed: true });
    // the wide answer says that something was withheld, not what
    expect(wide!.searches).toEqual({ value: 45, suppressed: true });
    // weeks are ISO weeks from Monday, clipped to the range
    const weeks = (await usage([src], '2026-05-01', '2026-05-10', 'WEEK')).periods.map((p) => [p.periodStart, p.periodEnd, p.searches.value]);
    expect(weeks).toEqual([
      ['2026-05-01', '2026-05-03', 10],
      ['2026-05-04', '2026-05-10', 35],
    ]);
  });

  it('gives nothing away to the cross-dimension subtraction: a country minus its released sources, a source minus its top documents', async () => {
    // a country code of its own (letters only), so other tests' calls do not count here
    const country = `Q${randomUUID().replace(/[^a-f]/g, '').slice(0, 6).toUpperCase()}`.padEnd(7, 'Z');
    const [a, b, lonely] = [source(), source(), source()];
    const fetchIn = (src: string, id: string): UsageFacts => ({ documents: [{ source: src, sourceId: id, namespace: 'case_law', country }] });
    const resolvedTo = (src: string): UsageFacts => ({ resolution: { matchType: 'exact', source: src, country } });
    for (const who of Array.from({ length: 5 }, () => caller())) {
      for (const src of [a, b]) {
        recorder.counted(call(who, '2026-09-01', searchFacts(src, 2, country)));
        recorder.counted(call(who, '2026-09-01', fetchIn(src, 'common'), undefined, 'documents'));
        recorder.counted(call(who, '2026-09-01', resolvedTo(src), undefined, 'resolve'));
      }
    }
    const loner = caller(); // the one account a subtraction would expose
    recorder.counted(call(loner, '2026-09-01', searchFacts(lonely, 3, country)));
    recorder.counted(call(loner, '2026-09-01', fetchIn(lonely, 'rare'), undefined, 'documents'));
    recorder.counted(call(loner, '2026-09-01', fetchIn(a, 'rare'), undefined, 'documents'));
    recorder.counted(call(loner, '2026-09-01', resolvedTo(lonely), undefined, 'resolve'));
    const range = { from: '2026-09-01', to: '2026-09-01' };
    const [countryDay] = (await service.countryUsage(asAdmin(), { countries: [country], ...range })).periods;
    const sourceDays = (await usage([a, b, lonely], range.from, range.to)).periods;
    const released = (measure: 'hits' | 'documentsFetched' | 'resolutions') => sourceDays.reduce((n, day) => n + (day[measure].value ?? 0), 0);
    // the country's own cells hold the loner (6 accounts): summed from them, each difference below would be the loner's activity
    const cells = await db.orm.em.fork().getConnection().execute<{ hits: number; documents: number }[]>(
      `select sum(hits)::int as hits, sum(documents)::int as documents from analytics_account_day where kind = 'country' and scope = ?`,
      [country],
    );
    expect(cells[0]).toEqual({ hits: 23, documents: 12 });
    expect(countryDay!.hits.value! - released('hits')).toBe(0);
    expect(countryDay!.documentsFetched.value! - released('documentsFetched')).toBe(0);
    expect(countryDay!.resolutions.value! - released('resolutions')).toBe(0);
    expect(countryDay).toMatchObject({ hits: { value: 20, suppressed: true }, documentsFetched: { value: 10, suppressed: true }, resolutions: { value: 10, suppressed: true } });
    expect(sourceDays.find((d) => d.source === lonely)).toMatchObject({ hits: { value: null, suppressed: true }, documentsFetched: { value: null, suppressed: true } });
    // a source's documents are the sum of its released documents: minus its top documents, nothing
    const top = await service.topDocuments(asAdmin(), { source: a, ...range });
    expect(top.documents.map((d) => [d.sourceId, d.fetches.value])).toEqual([['common', 5]]);
    expect(sourceDays.find((d) => d.source === a)!.documentsFetched).toEqual({ value: 5, suppressed: true });
    // the resolver's outcomes of the country are the sum of their released (source, country, match) cells
    const outcomes = await service.resolverOutcomes(asAdmin(), { countries: [country], ...range });
    expect(outcomes.outcomes).toEqual([{ country, matchType: 'exact', resolutions: { value: 10, suppressed: true } }]);
  });

  it('bounds a range to 400 days and refuses an end before its start (validation errors)', async () => {
    const src = source();
    await expect(usage([src], '2025-01-01', '2026-02-04')).resolves.toMatchObject({ from: '2025-01-01', to: '2026-02-04' }); // 400 days
    const tooLong = await usage([src], '2025-01-01', '2026-02-05').catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(ValidationError);
    expect((tooLong as ValidationError).issues[0]).toMatchObject({ loc: ['to'], msg: expect.stringMatching(/401 days; at most 400/) });
    expect(await usage([src], '2026-02-05', '2026-02-04').catch((e: unknown) => e)).toBeInstanceOf(ValidationError);
    expect(await usage([src], '2026-02-30', '2026-03-04').catch((e: unknown) => e)).toBeInstanceOf(ValidationError);
  });

  it('answers a partner within its scope only, and refuses anyone else', async () => {
    const [a, b] = [source(), source()];
    const partner = caller();
    await db.orm.em.fork().getConnection().execute(`insert into analytics_partner (user_id, sources, countries, updated_at) values (?, ?, '[]', now())`, [partner.userId, JSON.stringify([a])]);
    const asPartner = () => contexts.forCaller(partner);
    const range = { from: '2026-01-01', to: '2026-01-31' };
    await expect(service.sourceUsage(asPartner(), { sources: [a], ...range })).resolves.toMatchObject({ periods: expect.any(Array) });
    await expect(service.topDocuments(asPartner(), { source: a, ...range })).resolves.toMatchObject({ source: a });
    expect(await rejection(() => service.sourceUsage(asPartner(), { sources: [b], ...range }))).toBe('forbidden');
    expect(await rejection(() => service.sourceUsage(asPartner(), { sources: [a, b], ...range }))).toBe('forbidden');
    expect(await rejection(() => service.topDocuments(asPartner(), { source: b, ...range }))).toBe('forbidden');
    expect(await rejection(() => service.countryUsage(asPartner(), { countries: ['DE'], ...range }))).toBe('forbidden');
    expect(await rejection(() => service.sourceUsage(contexts.forCaller(caller()), { sources: [a], ...range }))).toBe('forbidden');
    expect(await rejection(() => service.sourceUsage(contexts.anonymous(), { sources: [a], ...range }))).toBe('unauthorized');
  });

  it('ranks top documents and counts resolver outcomes per country under the same rule', async () => {
    const src = source();
    const readers = Array.from({ length: 5 }, () => caller());
    for (const who of readers) {
      recorder.counted(call(who, '2026-06-01', fetchFacts(src, 'popular'), undefined, 'documents'));
      recorder.counted(call(who, '2026-06-01', fetchFacts(src, 'popular'), undefined, 'documents'));
      recorder.counted(call(who, '2026-06-01', { resolution: { matchType: 'exact', source: src, country: 'ZZ' } }, undefined, 'resolve'));
    }
    recorder.counted(call(readers[0]!, '2026-06-01', fetchFacts(src, 'private'), undefined, 'documents'));
    const top = await service.topDocuments(asAdmin(), { source: src, from: '2026-06-01', to: '2026-06-30' });
    expect(top.documents).toEqual([{ id: `${src}/popular`, sourceId: 'popular', namespace: 'case_law', country: 'DE', fetches: { value: 10, suppressed: false } }]);
    expect(top.suppressed).toBe(true); // 'private' was read by one account: left out
    const outcomes = await service.resolverOutcomes(asAdmin(), { countries: ['ZZ'], from: '2026-06-01', to: '2026-06-30' });
    expect(outcomes.outcomes).toEqual([{ country: 'ZZ', matchType: 'exact', resolutions: { value: 5, suppressed: false } }]);
  });

  it('writes the events still queued when it is closed (a clean shutdown loses nothing)', async () => {
    const src = source();
    const closing = new AnalyticsRecorder(db.orm, createLogger('silent'), { delayMs: 60_000 });
    for (let i = 0; i < 3; i++) closing.counted(call(caller(), '2026-07-01', searchFacts(src)));
    expect(closing.lag().pending_rows).toBe(3);
    await closing.close();
    const rows = await db.orm.em.fork().getConnection().execute<{ n: number }[]>(`select sum(searches)::int as n from analytics_account_day where kind = 'source' and scope = ?`, [src]);
    expect(rows[0]!.n).toBe(3);
  });

  it("re-keys an erased account's stored and queued days to one new key: the counts stay, the account's id goes", async () => {
    const src = source();
    const who = caller();
    recorder.counted(call(who, '2026-08-01', searchFacts(src)));
    await recorder.flush(); // stored before the erasure
    recorder.counted(call(who, '2026-08-02', searchFacts(src))); // queued when it starts
    const erasedKey = `erased:${randomUUID()}`;
    recorder.forget(who.userId, erasedKey);
    recorder.counted(call(who, '2026-08-03', searchFacts(src))); // a call still running
    await db.orm.em.fork().transactional((em) => anonymiseKeptRows(em, who.userId, erasedKey));
    await recorder.flush();
    const rows = await db.orm.em.fork().getConnection().execute<{ account: string; searches: number }[]>(`select account, searches from analytics_account_day where kind = 'source' and scope = ?`, [src]);
    expect(rows).toHaveLength(3);
    // still one account for distinct counts, under one key that is not the account's id
    expect([...new Set(rows.map((r) => r.account))]).toEqual([erasedKey]);
    expect(rows.reduce((n, r) => n + r.searches, 0)).toBe(3);
  });

  it('replays spilled events of an account erased before the restart under a new key, never its id', async () => {
    const src = source();
    const [kept, erased] = [caller(), caller()];
    await db.orm.em.fork().getConnection().execute('insert into app_user (id, email, email_lower, created_at) values (?, ?, ?, now())', [kept.userId, `${kept.userId}@example.org`, `${kept.userId}@example.org`]);
    // left by a process stopped while the database was down; the erasure came before the restart
    const dir = await mkdtemp(path.join(os.tmpdir(), 'analytics-spill-'));
    const spilled = [
      call(kept, '2026-10-01', searchFacts(src)),
      call(erased, '2026-10-01', searchFacts(src)),
      call(erased, '2026-10-02', searchFacts(src)),
      { ...call(kept, '2026-10-01', searchFacts(src)), caller: { kind: 'anonymous', ip: '192.0.2.7' } } as CountedCall,
    ].map((c) => analyticsEventOf(c, randomUUID())!);
    await spillBatch(dir, 'analytics_event', spilled.slice(0, 2), Date.now());
    await spillBatch(dir, 'analytics_event', spilled.slice(2), Date.now() + 1);
    const restarted = new AnalyticsRecorder(db.orm, createLogger('silent'), { spillDir: dir });
    await restarted.start();
    await restarted.flush();
    await restarted.close();
    const rows = await db.orm.em.fork().getConnection().execute<{ account: string; day: string; searches: number }[]>(
      `select account, to_char(day, 'YYYY-MM-DD') as day, searches from analytics_account_day where kind = 'source' and scope = ? order by day, account`,
      [src],
    );
    expect(rows.map((r) => r.account)).not.toContain(erased.userId);
    const erasedKeys = [...new Set(rows.filter((r) => r.account.startsWith('erased:')).map((r) => r.account))];
    expect(erasedKeys).toHaveLength(1); // both spill files: one key, one account for distinct counts
    expect(rows).toEqual(
      expect.arrayContaining([
        { account: kept.userId, day: '2026-10-01', searches: 1 },
        { account: 'anonymous', day: '2026-10-01', searches: 1 },
        { account: erasedKeys[0], day: '2026-10-01', searches: 1 },
        { account: erasedKeys[0], day: '2026-10-02', searches: 1 },
      ]),
    );
    expect(rows).toHaveLength(4);
  });
});
