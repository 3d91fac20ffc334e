/**
 * Issue #33 item 9: the authorization matrix. Every REST operation of /openapi.json and every
 * root field of the supergraph has a row in test/authorization-matrix.table.ts with the outcome
 * each caller gets (none, Free accounts A and B, a team's member, admin and owner, an
 * administrator, a revoked key, a signed-out session, an OAuth token for another resource); the
 * test sends each row's request as each caller against one running platform. A new operation
 * without a row, or a row without an operation, fails the test.
 */
import { readFileSync } from 'node:fs';
import { Kind, parse } from 'graphql';
import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../src/errors.js';
import { GRAPHQL_ERROR_CODES } from '../src/graphql/errors.js';
import { GRAPHQL_MATRIX, REST_MATRIX, type GraphqlRequest, type MatrixRow, type RestRequest } from './authorization-matrix.table.js';
import { CALLERS, startCallerWorld, type CallerName, type CallerWorld } from './helpers/caller-world.js';

/** The HTTP status each GraphQL `extensions.code` stands for (the inverse of the door's mapping). */
const STATUS_OF_GRAPHQL_CODE: Record<string, number> = Object.fromEntries(
  Object.entries(GRAPHQL_ERROR_CODES).map(([code, graphqlCode]) => [graphqlCode, HTTP_STATUS_BY_CODE[code as ErrorCode]]),
);

/** `Query.x` and `Mutation.y` of every root field of the committed supergraph. */
function supergraphRootFields(): string[] {
  const document = parse(readFileSync('graphql/supergraph.graphql', 'utf8'));
  return document.definitions.flatMap((d) =>
    d.kind === Kind.OBJECT_TYPE_DEFINITION && ['Query', 'Mutation'].includes(d.name.value) ? (d.fields ?? []).map((f) => `${d.name.value}.${f.name.value}`) : [],
  );
}

/** Runs `tasks` with at most `limit` at a time (the machine has 2 cores; the service is one process). */
async function inPool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

type Answer = { outcome: string; detail: string };

interface Cell {
  row: string;
  caller: CallerName;
  expected: string;
  /** Builds the request (making its throwaway objects) and answers the function that sends it. */
  prepare: () => Promise<() => Promise<Answer>>;
}

describe('authorization matrix: every operation × every caller', () => {
  let world: CallerWorld;

  beforeAll(async () => {
    world = await startCallerWorld();
  }, 480_000);

  afterAll(async () => {
    await world?.stop();
  });

  const sendRest = async (caller: CallerName, request: RestRequest): Promise<Answer> => {
    const res = await world.api(request.method, request.path, request.body, world.credentials[caller], request.headers);
    return { outcome: String(res.status), detail: JSON.stringify(res.body)?.slice(0, 200) ?? '' };
  };
  const sendGraphql = async (caller: CallerName, request: GraphqlRequest): Promise<Answer> => {
    const res = await world.api('POST', '/graphql', request, world.credentials[caller]);
    const errors = (res.body?.errors ?? []) as { message: string; extensions?: { code?: string } }[];
    if (res.status !== 200 || errors.length === 0) return { outcome: String(res.status), detail: JSON.stringify(res.body)?.slice(0, 200) ?? '' };
    const code = errors[0]!.extensions?.code ?? 'no code';
    return { outcome: String(STATUS_OF_GRAPHQL_CODE[code] ?? code), detail: `${code}: ${errors[0]!.message}` };
  };

  /** A request that fails without an answer (a reset connection) is an outcome too, named by its cause. */
  const orCause = (send: () => Promise<Answer>) => async (): Promise<Answer> => {
    try {
      return await send();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { outcome: cause?.code ?? 'no-answer', detail: String(cause?.message ?? error) };
    }
  };

  /** One cell per caller of a row. */
  function cellsOf<R>(row: string, entry: MatrixRow<R>, send: (caller: CallerName, request: R) => Promise<Answer>): Cell[] {
    const expected = entry.expect.trim().split(/\s+/);
    if (expected.length !== CALLERS.length) throw new Error(`${row}: ${expected.length} outcomes for ${CALLERS.length} callers (${CALLERS.join(' ')})`);
    return CALLERS.map((caller, i) => ({
      row,
      caller,
      expected: expected[i]!,
      prepare: async () => {
        const request = await entry.request(world, caller);
        return orCause(() => send(caller, request));
      },
    }));
  }

  it('has a row for every REST operation of /openapi.json and every root field of the supergraph, and no other row', async () => {
    const openapi = (await world.api('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(openapi.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.length).toBeGreaterThan(60);
    expect(Object.keys(REST_MATRIX).sort()).toEqual(operations.sort());
    const fields = supergraphRootFields();
    expect(fields.length).toBeGreaterThan(40);
    expect(Object.keys(GRAPHQL_MATRIX).sort()).toEqual(fields.sort());
  });

  it('each caller gets the outcome its row names', async () => {
    const rows = [
      ...Object.entries(REST_MATRIX).map(([name, entry]) => ({ name, entry: entry as MatrixRow<unknown>, send: sendRest as (c: CallerName, r: unknown) => Promise<Answer> })),
      ...Object.entries(GRAPHQL_MATRIX).map(([name, entry]) => ({ name, entry: entry as MatrixRow<unknown>, send: sendGraphql as (c: CallerName, r: unknown) => Promise<Answer> })),
    ];
    const observed = new Map<string, Map<CallerName, Answer>>();
    const check = (cell: Cell, got: Answer) => {
      if (!observed.has(cell.row)) observed.set(cell.row, new Map());
      observed.get(cell.row)!.set(cell.caller, got);
    };
    // the rows that leave the callers as they are: built one after the other (throwaway objects
    // share the team's join link), then sent in parallel
    const cells = rows.filter((r) => !r.entry.last).flatMap(({ name, entry, send }) => cellsOf(name, entry, send));
    const senders: (() => Promise<Answer>)[] = [];
    for (const cell of cells) senders.push(await cell.prepare());
    const answers = await inPool(senders, 8);
    cells.forEach((cell, i) => check(cell, answers[i]!));
    // then those that change or end the caller, one at a time, by rank
    const last = rows.filter((r) => r.entry.last).sort((x, y) => x.entry.last! - y.entry.last!);
    for (const { name, entry, send } of last) {
      for (const cell of cellsOf(name, entry, send)) check(cell, await (await cell.prepare())());
    }
    // a mismatch shows the whole row as expected and as observed, and what each differing caller
    // got (a request the server cut off shows as its error code)
    const mismatches = rows.flatMap(({ name, entry }) => {
      const got = CALLERS.map((caller) => observed.get(name)!.get(caller)!);
      const expected = entry.expect.trim().split(/\s+/);
      const line = got.map((g) => g.outcome).join(' ');
      if (line === expected.join(' ')) return [];
      const why = CALLERS.flatMap((caller, i) => (got[i]!.outcome === expected[i] ? [] : [`${caller}: ${got[i]!.detail}`]));
      return [`${name}\n  expected ${expected.join(' ')}\n  observed ${line}\n  ${why.join('\n  ')}`];
    });
    expect(mismatches).toEqual([]);
  }, 480_000);
});
