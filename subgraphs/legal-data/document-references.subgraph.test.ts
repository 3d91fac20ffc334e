/**
 * Federated `Document` references resolved in batches (issue 35, item 10), on a real platform
 * (embedded engine over a corpus slice, PGlite): `_entities` with 10, 100 or 120 references on
 * the legal-data subgraph's schema, the caller an account. Counted: the engine's document reads
 * (a counting wrapper around the platform's engine), the SQL statements of the ORM's connection,
 * and the usage rows billed to the caller. Nothing here grows with the number of references up
 * to a batch (100), and nothing is shared between two requests.
 */
import { randomUUID } from 'node:crypto';
import { graphql, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { AccountCaller } from '../../src/context.js';
import { graphqlContext } from '../../src/graphql/context.js';
import type { Platform } from '../../src/platform.js';
import { sqlRows } from '../../src/util/raw-sql.js';
import { readRecords } from '../../test/fixtures/corpus-slice.js';
import { startTestPlatform } from '../../test/helpers/platform.js';
import { buildLegalDataSubgraph } from './index.js';
import { countStatements } from '../../test/helpers/test-databases.js';

const FILE = 'legislation/FR-LegifranceCodes.jsonl.gz';
const MISSING = 'FR/LegifranceCodes/no-such-article';
/**
 * SQL statements one `_entities` request may run, whatever its size: the new caller's usage
 * windows, rebuilt from the usage rows on its first billed call (3 observed on PGlite).
 */
const STATEMENT_BOUND = 3;

const ENTITIES = /* GraphQL */ `
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on Document { id title } }
  }
`;

const account = (userId: string): AccountCaller => ({
  kind: 'user', ip: null, userId, email: `${userId}@example.org`, plan: 'free', isAdmin: false, emailVerified: true, seats: 1, keyId: null, billingPeriod: null,
});

describe('federated Document references (PGlite)', () => {
  let platform: Platform;
  let schema: GraphQLSchema;
  let ids: string[];
  /** Calls of the engine's getDocuments since the last reset. */
  let engineReads = 0;

  beforeAll(async () => {
    ids = (await readRecords(FILE, 120)).map((r) => `${String(r.source)}/${String(r.source_id)}`);
    platform = await startTestPlatform([{ file: FILE, lines: 120 }], { RATE_LIMITS: 'false' });
    const engine = platform.engine;
    const read = engine.getDocuments.bind(engine);
    engine.getDocuments = (wanted) => {
      engineReads++;
      return read(wanted);
    };
    schema = await buildLegalDataSubgraph(platform.legalData);
  }, 300_000);
  afterAll(async () => {
    await platform?.stop();
  });

  /** The SQL statements the platform's connection executed while `work` ran. */
  const statementsOf = (work: () => Promise<unknown>) => countStatements(platform.orm, work);

  async function billedDocumentReads(userId: string): Promise<number> {
    await platform.accounts.usage.flush();
    const rows = await sqlRows<{ n: number | string }>(platform.orm.em.fork(), "select count(*) as n from usage_event where user_id = ? and endpoint = 'documents'", [userId]);
    return Number(rows[0]!.n);
  }

  /** One `_entities` request of a new account for `references`: its answer and what it cost. */
  async function resolve(references: string[]) {
    const userId = randomUUID();
    await platform.accounts.usage.flush(); // rows of earlier requests are not written during this one
    engineReads = 0;
    let result: ExecutionResult<{ _entities: ({ id: string; title: string } | null)[] }> | undefined;
    const statements = await statementsOf(async () => {
      const contextValue = graphqlContext(platform.contexts.forCaller(account(userId)));
      const representations = references.map((id) => ({ __typename: 'Document', id }));
      result = (await graphql({ schema, source: ENTITIES, variableValues: { representations }, contextValue })) as typeof result;
    });
    expect(result!.errors).toBeUndefined();
    return { entities: result!.data!._entities, engineReads, statements, billed: await billedDocumentReads(userId) };
  }

  it('reads 10 or 100 references with one engine call, one billed read and the same few SQL statements', async () => {
    const ten = await resolve([...ids.slice(0, 9), MISSING]);
    expect(ten.entities.map((e) => e?.id ?? null)).toEqual([...ids.slice(0, 9), null]);
    const hundred = await resolve([...ids.slice(0, 99), MISSING]);
    expect(hundred.entities.map((e) => e?.id ?? null)).toEqual([...ids.slice(0, 99), null]);
    expect(hundred.entities.every((e) => e === null || e.title.length > 0)).toBe(true);
    console.log(`Document references: 10 -> ${ten.engineReads} engine reads, ${ten.statements} SQL statements, ${ten.billed} billed; 100 -> ${hundred.engineReads}, ${hundred.statements}, ${hundred.billed}`);
    expect([ten.engineReads, hundred.engineReads]).toEqual([1, 1]);
    expect([ten.billed, hundred.billed]).toEqual([1, 1]);
    // the caller's usage windows read from the database (a new account each time), nothing per document
    expect(ten.statements).toBeLessThanOrEqual(STATEMENT_BOUND);
    expect(hundred.statements).toBeLessThanOrEqual(ten.statements);
  }, 120_000);

  it('splits more than 100 references into batches of 100, each one engine call and one billed read', async () => {
    const all = await resolve(ids);
    expect(all.entities.map((e) => e?.id)).toEqual(ids);
    expect(ids).toHaveLength(120);
    expect([all.engineReads, all.billed]).toEqual([2, 2]);
  }, 120_000);

  it('refuses a direct read of more than 100 ids as a validation error, before the engine or the bill', async () => {
    const userId = randomUUID();
    engineReads = 0;
    const refused = platform.legalData.getDocuments(platform.contexts.forCaller(account(userId)), ids.slice(0, 101));
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed', issues: [expect.objectContaining({ loc: ['ids'], type: 'too_long' })] });
    expect(engineReads).toBe(0);
    expect(await billedDocumentReads(userId)).toBe(0);
  }, 120_000);

  it('shares no loader between requests: the same references read again are read and billed again', async () => {
    const first = await resolve(ids.slice(0, 5));
    const second = await resolve(ids.slice(0, 5));
    expect([first.engineReads, second.engineReads]).toEqual([1, 1]);
    expect([first.billed, second.billed]).toEqual([1, 1]);
  }, 120_000);
});
