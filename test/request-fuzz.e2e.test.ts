/**
 * Issue #33 item 10: property-based fuzzing of every REST operation of /openapi.json and every
 * GraphQL mutation, with fast-check, from the request schemas (bodies, query strings, path
 * parameters; GraphQL argument types) and from any JSON at all: wrong types, huge and odd
 * strings, nulls, deep nesting, bodies that are not JSON. For every request: never a 5xx; a
 * refused REST request answers a `detail` (FastAPI's list for 422, a message otherwise), a
 * refused GraphQL operation an error with a code that is not INTERNAL_SERVER_ERROR; and a
 * refused request changed nothing the caller holds (test/helpers/state-snapshot.ts).
 *
 * The seed is fixed and the runs per operation bounded, so a failure replays the same way.
 */
import fc from 'fast-check';
import { Kind, parse, print, type FieldDefinitionNode, type TypeNode } from 'graphql';
import { readFileSync } from 'node:fs';
import { startCallerWorld, type CallerWorld, type Credential } from './helpers/caller-world.js';
import { anyJson, fromSchema, pathSegment, queryString } from './helpers/schema-arbitraries.js';
import { snapshotOf, type SnapshotSubject } from './helpers/state-snapshot.js';

const SEED = 33;
/** Runs per operation: bounded so that the file takes about a minute and a half. */
const RUNS = 8;
const RUNS_WITHOUT_INPUT = 3;

/**
 * Operations not fuzzed, and why. Everything else is, including the webhooks (unsigned fuzz is
 * refused before it is read) and the sign-in paths (what they start is cheap and bounded).
 */
const NOT_FUZZED: Record<string, string> = {
  'POST /auth/logout': "no input to generate; a successful call ends the fuzzing caller's session for every later run",
};

/**
 * Billable operations count a call that reached the service even when it is refused (422, 404:
 * src/modules/usage/usage.service.ts), so their usage rows are left out of the comparison.
 */
const BILLABLE = new Set(['POST /v1/search', 'POST /v1/resolve', 'GET /v1/documents/{country}/{source_name}/{source_id}', 'GET /v1/documents/{country}/{source_name}', 'GET /v1/documents/{country}/{source_name}/{source_id}/cited-by', 'GET /v1/documents/{country}/{source_name}/{source_id}/cites']);

interface Fuzzer {
  credential: Credential;
  subject: SnapshotSubject;
}

/** Bodies that are not JSON at all, or JSON that JavaScript and Python read differently. */
const rawBody = fc.constantFrom('{"q": ', 'NaN', '{"q": Infinity}', '[1, 2', '\u0000', '{"a": "\\ud800"}', '{"q": "x", "q": 1}', 'x'.repeat(2_000_000));

interface RestCase {
  path: string;
  query: string;
  body: { json: unknown } | { raw: string } | null;
}

describe('request fuzzing: every REST operation and GraphQL mutation', () => {
  let world: CallerWorld;
  let openapi: Record<string, any>;
  let teamId: string;

  beforeAll(async () => {
    world = await startCallerWorld();
    openapi = (await world.api('GET', '/openapi.json')).body;
    const [row] = (await world.platform.orm.em.fork().getConnection().execute('select workspace_id from workspace_member where user_id = ?', [world.userIds.owner])) as { workspace_id: string }[];
    teamId = row!.workspace_id;
  }, 480_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** Who sends an operation: the administrator on admin paths, the team's owner on team paths, else A (a Free account). */
  function fuzzerFor(operation: string): Fuzzer {
    const as = (name: 'accountA' | 'owner' | 'administrator'): Fuzzer => ({
      credential: world.credentials[name],
      subject: { userId: world.userIds[name]!, workspaceId: name === 'owner' ? teamId : null },
    });
    if (/\/v1\/admin\/|Mutation\.admin/.test(operation)) return as('administrator');
    if (/\/v1\/team|Mutation\.(invite|revokeInvite|joinTeam|setAllowedDomains|checkAllowedDomain|changeMemberRole|removeMember|setSeats)/.test(operation)) return as('owner');
    return as('accountA');
  }

  /** Sends `send()` as `fuzzer` and checks the answer with `check`; a refusal must leave the fuzzer's rows as they were. */
  async function probe(operation: string, fuzzer: Fuzzer, send: () => Promise<{ status: number; body: any }>, refused: (status: number, body: any) => boolean, check: (status: number, body: any) => void): Promise<void> {
    const withUsage = !BILLABLE.has(operation);
    // usage rows are written in batches after the answer: flush them, so that each snapshot holds every call made before it
    const snapshot = async () => {
      await world.platform.accounts.usage.flush();
      return snapshotOf(world.platform.orm, fuzzer.subject, { withUsage });
    };
    const before = await snapshot();
    const { status, body } = await send();
    check(status, body);
    if (refused(status, body)) expect({ operation, status, state: await snapshot() }).toEqual({ operation, status, state: before });
  }

  /** FastAPI's body for a refusal: a message, or (422) a list of located problems. */
  function expectDetail(operation: string, status: number, body: any, sent: string): void {
    const context = { operation, status, sent: sent.slice(0, 300), body: JSON.stringify(body)?.slice(0, 300) };
    expect({ ...context, server_error: status >= 500 }).toEqual({ ...context, server_error: false });
    if (status < 400) return;
    const detail = body?.detail;
    const wellFormed =
      status === 422
        ? Array.isArray(detail) && detail.length > 0 && detail.every((d: any) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string')
        : (typeof detail === 'string' && detail.length > 0) || (Array.isArray(detail) && detail.length > 0);
    expect({ ...context, wellFormed }).toEqual({ ...context, wellFormed: true });
  }

  it('REST: never a 5xx, a detail with every refusal, nothing changed by a refused request', async () => {
    const operations = Object.entries(openapi.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
    expect(operations.length).toBeGreaterThan(60);
    for (const { method, path, op } of operations) {
      const operation = `${method} ${path}`;
      if (NOT_FUZZED[operation]) continue;
      const parameters = (op.parameters ?? []) as Record<string, any>[];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const hasInput = Boolean(schema) || parameters.length > 0;
      const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name as string);
      const cases: fc.Arbitrary<RestCase> = fc.record({
        path: fc.tuple(...pathNames.map(() => pathSegment)).map((segments) => pathNames.reduce((p, name, i) => p.replace(`{${name}}`, segments[i]!), path)),
        query: queryString(parameters, openapi),
        body: schema
          ? fc.oneof({ weight: 8, arbitrary: fromSchema(schema, openapi).map((json) => ({ json })) }, { weight: 1, arbitrary: rawBody.map((raw) => ({ raw })) }, { weight: 1, arbitrary: fc.constant(null) })
          : method === 'GET' ? fc.constant(null) : fc.option(anyJson.map((json) => ({ json })), { freq: 2 }),
      });
      // DELETE /auth/me erases whoever sends a valid one: each run is a new account
      const fresh = operation === 'DELETE /auth/me';
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const fuzzer = fresh ? await freshAccount() : fuzzerFor(operation);
          const text = c.body === null ? undefined : 'raw' in c.body ? c.body.raw : JSON.stringify(c.body.json);
          const send = async () => {
            const headers: Record<string, string> = { ...(text !== undefined ? { 'content-type': 'application/json' } : {}) };
            if (fuzzer.credential.key) headers.authorization = `Bearer ${fuzzer.credential.key}`;
            if (fuzzer.credential.cookie) headers.cookie = fuzzer.credential.cookie;
            const url = `${world.base}${c.path}${c.query}`;
            const init = { method, headers, body: text, redirect: 'manual' as const };
            // a kept-alive socket closed by the server in the instant it was reused: the request never arrived (see caller-world.ts)
            const res = await fetch(url, init).catch((error: { cause?: { code?: string } }) => (error.cause?.code === 'ECONNRESET' ? fetch(url, init) : Promise.reject(error)));
            const answer = await res.text();
            let body: unknown = answer;
            try {
              body = answer ? JSON.parse(answer) : null;
            } catch {
              /* not JSON: the check below reports it */
            }
            return { status: res.status, body };
          };
          await probe(operation, fuzzer, send, (status) => status >= 400, (status, body) => expectDetail(operation, status, body, `${c.path}${c.query} ${text ?? ''}`));
        }),
        { seed: SEED, numRuns: hasInput ? RUNS : RUNS_WITHOUT_INPUT, endOnFailure: true },
      );
    }
  }, 600_000);

  async function freshAccount(): Promise<Fuzzer> {
    const res = await world.api('POST', '/auth/dev-login', { email: `fuzz-${Date.now()}-${Math.random()}@example.org` });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('session='))!.split(';')[0]!;
    return { credential: { cookie }, subject: { userId: res.body.id as string } };
  }

  it('GraphQL mutations: never a 5xx or an internal error, a code with every error, nothing changed by a refused operation', async () => {
    const document = parse(readFileSync('graphql/supergraph.graphql', 'utf8'));
    const mutation = document.definitions.find((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Mutation');
    const inputs = new Map(document.definitions.flatMap((d) => (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? [[d.name.value, d] as const] : [])));
    // closed-set arguments are enums (issue 35, item 7): mostly their values, sometimes any string
    const enums = new Map(document.definitions.flatMap((d) => (d.kind === Kind.ENUM_TYPE_DEFINITION ? [[d.name.value, (d.values ?? []).map((v) => v.name.value)] as const] : [])));
    /** A GraphQL type as the JSON Schema its variables follow (Int is 32-bit). */
    const schemaOf = (type: TypeNode, nullable = true): Record<string, any> => {
      if (type.kind === Kind.NON_NULL_TYPE) return schemaOf(type.type, false);
      const inner: Record<string, any> =
        type.kind === Kind.LIST_TYPE
          ? { type: 'array', items: schemaOf(type.type) }
          : type.name.value === 'Int'
            ? { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }
            : type.name.value === 'Float'
              ? { type: 'number' }
              : type.name.value === 'Boolean'
                ? { type: 'boolean' }
                : inputs.has(type.name.value)
                  ? {
                      type: 'object',
                      properties: Object.fromEntries((inputs.get(type.name.value)!.fields ?? []).map((f) => [f.name.value, schemaOf(f.type)])),
                      required: (inputs.get(type.name.value)!.fields ?? []).filter((f) => f.type.kind === Kind.NON_NULL_TYPE).map((f) => f.name.value),
                    }
                  : enums.has(type.name.value)
                    ? { type: 'string', enum: enums.get(type.name.value) }
                    : { type: 'string' };
      return nullable ? { anyOf: [inner, { type: 'null' }] } : inner;
    };
    expect(mutation).toBeDefined();
    for (const field of (mutation as { fields: readonly FieldDefinitionNode[] }).fields) {
      const operation = `Mutation.${field.name.value}`;
      const args = field.arguments ?? [];
      const declared = args.map((a) => `$${a.name.value}: ${print(a.type)}`).join(', ');
      const query = `mutation${declared ? `(${declared})` : ''} { ${field.name.value}${args.length ? `(${args.map((a) => `${a.name.value}: $${a.name.value}`).join(', ')})` : ''} { __typename } }`;
      const variables = fc.record(Object.fromEntries(args.map((a) => [a.name.value, fromSchema(schemaOf(a.type), { components: { schemas: {} } })])), { requiredKeys: [] });
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const fuzzer = fuzzerFor(operation);
          const send = () => world.api('POST', '/graphql', { query, variables: vars }, fuzzer.credential);
          const refused = (_status: number, body: any) => Boolean(body?.errors?.length) && !body?.data?.[field.name.value];
          await probe(operation, fuzzer, send, refused, (status, body) => {
            const context = { operation, status, variables: JSON.stringify(vars).slice(0, 300), errors: JSON.stringify(body?.errors)?.slice(0, 300) };
            const codes = ((body?.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code ?? 'none');
            expect({ ...context, server_error: status >= 500 || codes.includes('INTERNAL_SERVER_ERROR') || codes.includes('none') }).toEqual({ ...context, server_error: false });
          });
        }),
        { seed: SEED, numRuns: args.length ? RUNS : RUNS_WITHOUT_INPUT, endOnFailure: true },
      );
    }
  }, 600_000);
});
