/**
 * The bounds on a GraphQL operation at the gateway (src/graphql/operation-limits.ts): each bound
 * refuses the operation just over it with a 400 whose `extensions.code` names it, and lets the
 * one at it through; the dashboard's own operations stay well within every bound; field
 * suggestions go with introspection.
 */
import express from 'express';
import { buildSchema, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, Kind, parse, print, validate, visit, type ASTNode } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GRAPHQL_LIMIT_DEFAULTS, type GraphqlOperationLimits } from '../config.js';
import { mountGraphql, type MountedGraphql } from './gateway.js';
import { OPERATION_LIMIT_CODES, operationLimitRules } from './operation-limits.js';
import { schemaOnlyServices } from './subgraphs.js';

interface GraphqlAnswer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
}

/** A gateway over schema-only subgraphs (no database: resolvers throw), served on a loopback port. */
async function serveGateway(settings: Parameters<typeof mountGraphql>[1]['settings']) {
  const app = express();
  const door = await mountGraphql(app, { services: schemaOnlyServices(), subgraphUrls: {}, settings });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const post = async (body: unknown): Promise<GraphqlAnswer> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as GraphqlAnswer['body'] };
  };
  const stop = async () => {
    await door.stop();
    await new Promise((resolve) => server.close(resolve));
  };
  return { door, post, stop };
}

const codes = (answer: GraphqlAnswer) => (answer.body.errors ?? []).map((e) => e.extensions?.code);
const LIMIT_CODES: string[] = Object.values(OPERATION_LIMIT_CODES);
const repeat = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(' ');
/** `n` inline fragments on Query nested around `__typename`: depth n + 1 as Armor counts it. */
const nested = (n: number) => `${'{ ... on Query '.repeat(n)}{ __typename }${' }'.repeat(n)}`;

const limits = GRAPHQL_LIMIT_DEFAULTS;

describe('POST /graphql: bounds on an operation (default limits)', () => {
  let gateway: Awaited<ReturnType<typeof serveGateway>>;
  beforeAll(async () => {
    gateway = await serveGateway({ introspection: true, limits });
  });
  afterAll(() => gateway.stop());

  it('answers an operation at every bound (no limit error)', async () => {
    const atTheBounds = [
      `{ ${repeat(limits.maxAliases, (i) => `a${i}: __typename`)} }`,
      nested(limits.maxDepth - 1),
      `{ ${repeat(limits.maxDirectives, () => '__typename @include(if: true)')} }`,
    ];
    for (const query of atTheBounds) {
      const answer = await gateway.post({ query });
      expect({ query, status: answer.status, codes: codes(answer) }).toEqual({ query, status: 200, codes: [] });
    }
  });

  it.each([
    ['aliases', `{ ${repeat(limits.maxAliases + 1, (i) => `a${i}: __typename`)} }`, `Aliases limit of ${limits.maxAliases} exceeded, found ${limits.maxAliases + 1}.`],
    ['depth', nested(limits.maxDepth), `Query depth limit of ${limits.maxDepth} exceeded, found ${limits.maxDepth + 1}.`],
    ['directives', `{ ${repeat(limits.maxDirectives + 1, () => '__typename @include(if: true)')} }`, `Directives limit of ${limits.maxDirectives} exceeded, found ${limits.maxDirectives + 1}.`],
    ['tokens', `{ ${repeat(limits.maxTokens, () => '__typename')} }`, `Tokens limit of ${limits.maxTokens} exceeded.`],
  ] as const)('refuses an operation over the %s bound: 400, a code naming the bound', async (limit, query, message) => {
    const answer = await gateway.post({ query });
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ message, extensions: expect.objectContaining({ code: OPERATION_LIMIT_CODES[limit] }) }));
  });

  it('refuses an operation over the cost bound, counting each fragment where it is spread', async () => {
    // Few tokens, many fields once the fragments are expanded: each level doubles the one below.
    const fragments = Array.from({ length: 12 }, (_, i) => `fragment F${i} on MeType { plan ...F${i + 1} ...F${i + 1} }`).join(' ');
    const answer = await gateway.post({ query: `{ me { ...F0 } } ${fragments} fragment F12 on MeType { plan }` });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(new RegExp(`^Query Cost limit of ${limits.maxCost} exceeded, found \\d+`)), extensions: expect.objectContaining({ code: 'GRAPHQL_TOO_COSTLY' }) }),
    );
  });

  it('refuses a body over GRAPHQL_MAX_BODY_BYTES with 413 and a GraphQL error', async () => {
    const answer = await gateway.post({ query: `{ __typename } # ${'x'.repeat(limits.maxBodyBytes)}` });
    expect(answer).toEqual({
      status: 413,
      body: { errors: [{ message: `Request body too large: at most ${limits.maxBodyBytes} bytes.`, extensions: { code: 'GRAPHQL_REQUEST_TOO_LARGE' } }] },
    });
  });

  it('refuses a batch (a JSON array of operations): the bounds are per operation, a batch would multiply them', async () => {
    const answer = await gateway.post([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(answer).toEqual({ status: 400, body: { errors: [{ message: 'Operation batching disabled.', extensions: { code: 'BAD_REQUEST' } }] } });
  });

  it('leaves other validation errors as Apollo gives them', async () => {
    const answer = await gateway.post({ query: '{ noSuchField }' });
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('the dashboard operations and the bounds', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const half = Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, Math.floor(v / 2)])) as unknown as GraphqlOperationLimits;
  let gateway: Awaited<ReturnType<typeof serveGateway>>;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    gateway = await serveGateway({ introspection: false, limits });
    schema = buildSchema(gateway.door.supergraphSdl);
  });
  afterAll(() => gateway.stop());

  /** The fragments `node` spreads, transitively (the dashboard's client sends only those with an operation). */
  function fragmentsUsedBy(node: ASTNode, fragments: Map<string, FragmentDefinitionNode>, used = new Map<string, FragmentDefinitionNode>()): FragmentDefinitionNode[] {
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !used.has(fragment.name.value)) {
          used.set(fragment.name.value, fragment);
          fragmentsUsedBy(fragment, fragments, used);
        }
      },
    });
    return [...used.values()];
  }

  /** Every operation of src/dashboard/**\/*.graphql, as the dashboard sends it (with the fragments of its file). */
  function dashboardOperations(): { name: string; document: DocumentNode }[] {
    const files = readdirSync(path.join(root, 'src/dashboard'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.graphql'));
    return files.flatMap((file) => {
      const document = parse(readFileSync(path.join(root, 'src/dashboard', file), 'utf8'));
      const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
      return document.definitions
        .filter((d) => d.kind === Kind.OPERATION_DEFINITION)
        .map((operation) => ({ name: `${file}: ${operation.name?.value}`, document: { kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsUsedBy(operation, fragments)] } as DocumentNode }));
    });
  }

  it('finds the dashboard operations', () => {
    expect(dashboardOperations().length).toBeGreaterThan(30);
  });

  it('keeps every dashboard operation within half of each bound', () => {
    for (const { name, document } of dashboardOperations()) {
      const text = print(document);
      expect({ name, bytes: text.length <= half.maxBodyBytes }).toEqual({ name, bytes: true });
      expect(() => parse(text, { maxTokens: half.maxTokens })).not.toThrow();
      expect({ name, errors: validate(schema, document, operationLimitRules(half)).map((e) => e.message) }).toEqual({ name, errors: [] });
    }
  });

  it('sends every dashboard operation through the gateway without a limit or validation error', async () => {
    for (const { name, document } of dashboardOperations()) {
      const answer = await gateway.post({ query: print(document) });
      const refused = codes(answer).filter((code) => code && (LIMIT_CODES.includes(code) || code.startsWith('GRAPHQL_')));
      expect({ name, refused }).toEqual({ name, refused: [] });
    }
  });
});

describe('field suggestions follow introspection', () => {
  const typo = { query: '{ adminUser { total } }' };
  const variableTypo = {
    query: 'query Search($input: SearchInput!) { search(input: $input) { total_hits } }',
    variables: { input: { qq: 'contract' } },
  };

  it('hides suggestions ("Did you mean …") and refuses introspection when introspection is off', async () => {
    const gateway = await serveGateway({ introspection: false, limits });
    try {
      for (const request of [typo, variableTypo]) {
        const answer = await gateway.post(request);
        expect(answer.status).toBe(400);
        expect(answer.body.errors!.length).toBeGreaterThan(0);
        expect(JSON.stringify(answer.body)).not.toMatch(/Did you mean/);
      }
      const introspection = await gateway.post({ query: '{ __schema { queryType { name } } }' });
      expect(introspection.status).toBe(400);
      expect(introspection.body.errors).toEqual([
        expect.objectContaining({
          message: 'GraphQL introspection is not allowed on this server: its schema is not published (GRAPHQL_INTROSPECTION is off).',
          extensions: expect.objectContaining({ code: 'INTROSPECTION_DISABLED' }),
        }),
      ]);
      const byType = await gateway.post({ query: '{ __type(name: "Query") { name } }' });
      expect(byType.status).toBe(400);
      expect(byType.body.errors?.map((e) => e.extensions?.code)).toEqual(['INTROSPECTION_DISABLED']);
    } finally {
      await gateway.stop();
    }
  });

  it('gives suggestions when introspection is on (the schema is public then)', async () => {
    const gateway = await serveGateway({ introspection: true, limits });
    try {
      const answer = await gateway.post(typo);
      expect(answer.body.errors![0]!.message).toMatch(/Did you mean "adminUsers"/);
      const introspection = await gateway.post({ query: '{ __schema { queryType { name } } }' });
      expect(introspection.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    } finally {
      await gateway.stop();
    }
  });
});
