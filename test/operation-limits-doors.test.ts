/**
 * The one list of operation limits (src/modules/usage/operation-limits.ts) against both doors
 * that document it, built without a server: every GraphQL field with a `@rateLimit` directive is
 * in the list with the same limit and window (a field limited in GraphQL alone would be a second,
 * unshared budget, or none), every field the list names carries it, and every REST operation the
 * list names is in /openapi.json with its 429. That the services count it is shown by
 * subgraphs/teams/teams.subgraph.test.ts and src/modules/usage/operation-limits.test.ts.
 */
import 'reflect-metadata';
import { isObjectType, Kind, type ConstArgumentNode, type GraphQLField } from 'graphql';
import { describeRestApi } from '../src/app.js';
import { buildSubgraphs, schemaOnlyServices, type BuiltSubgraph } from '../src/graphql/subgraphs.js';
import { OPERATION_LIMITS, type OperationLimitRule } from '../src/modules/usage/operation-limits.js';

/** `limit` and `duration` of a field's `@rateLimit`, or null without one. */
function rateLimitOf(field: GraphQLField<unknown, unknown>): { limit: number; duration: number } | null {
  const directive = field.astNode?.directives?.find((d) => d.name.value === 'rateLimit');
  if (!directive) return null;
  const arg = (name: string) => {
    const value = directive.arguments?.find((a: ConstArgumentNode) => a.name.value === name)?.value;
    return value?.kind === Kind.INT ? Number(value.value) : NaN;
  };
  return { limit: arg('limit'), duration: arg('duration') };
}

describe('operation limits in the doors', () => {
  let subgraphs: BuiltSubgraph[];
  beforeAll(async () => {
    subgraphs = await buildSubgraphs(schemaOnlyServices());
  });

  it('documents exactly the listed limits with @rateLimit, on the fields the list names', () => {
    const documented = new Map<string, { limit: number; duration: number }>();
    for (const { schema } of subgraphs) {
      for (const root of [schema.getQueryType(), schema.getMutationType()]) {
        if (!isObjectType(root)) continue;
        for (const field of Object.values(root.getFields())) {
          const limit = rateLimitOf(field);
          if (limit) documented.set(`${root.name}.${field.name}`, limit);
        }
      }
    }
    const rules: OperationLimitRule[] = Object.values(OPERATION_LIMITS);
    const inGraphql = rules.filter((rule) => rule.graphql !== null);
    const listed = new Map(inGraphql.map((rule) => [rule.graphql, { limit: rule.limit, duration: rule.durationSeconds }]));
    expect(listed.size).toBe(inGraphql.length);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(listed));
  });

  it('names at least one door for every listed limit', () => {
    const doorless = Object.entries(OPERATION_LIMITS as Record<string, OperationLimitRule>).filter(([, rule]) => rule.rest.length === 0 && rule.graphql === null);
    expect(doorless.map(([name]) => name)).toEqual([]);
  });

  it('documents a 429 with the limit on every REST operation the list names', () => {
    const paths = describeRestApi('https://legal.example.org').paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    const missing: string[] = [];
    for (const rule of Object.values(OPERATION_LIMITS)) {
      for (const route of rule.rest) {
        const [method, path] = route.split(' ') as [string, string];
        const answer = paths[path]?.[method.toLowerCase()]?.responses['429']?.description;
        if (!answer?.startsWith(`Too many requests: at most ${rule.limit} per ${rule.durationSeconds} seconds per caller`)) missing.push(`${route}: ${answer ?? 'no 429'}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
