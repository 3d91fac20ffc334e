/**
 * The drift check fails on drift: a fixture pair that agrees, then the same pair with one thing
 * changed at a time (a field renamed, nullability flipped, an enum value added, a list, a kind,
 * a nested field, an input's snake_case name or String where REST has an enum), and a real pair
 * of the accounts subgraph with its REST side changed.
 */
import { buildSchema, isObjectType, type GraphQLInputObjectType, type GraphQLObjectType } from 'graphql';
import { z } from 'zod';
import { usageRecordSchema } from '../../src/modules/usage/usage.schema.js';
import { buildSubgraphs, schemaOnlyServices } from '../../src/graphql/subgraphs.js';
import { compareShapes } from './schema-drift.js';

const FIXTURE_SDL = /* GraphQL */ `
  enum Status { open closed }
  type Owner { id: ID! name: String }
  type Ticket {
    id: ID!
    title: String!
    note: String
    status: Status!
    tags: [String!]!
    votes: Int!
    owner: Owner!
  }
  type Query { ticket: Ticket }
`;

const ticket = z.object({
  id: z.string(),
  title: z.string(),
  note: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  tags: z.array(z.string()),
  votes: z.number().int(),
  owner: z.object({ id: z.string(), name: z.string().nullable().optional() }),
});

function fixtureType(sdl = FIXTURE_SDL): GraphQLObjectType {
  return buildSchema(sdl).getType('Ticket') as GraphQLObjectType;
}

describe('the drift check', () => {
  it('pairs an input type by camelCase names, and refuses a REST enum behind a String in it', () => {
    const request = z.object({ top_k: z.number().int().optional(), namespace: z.enum(['case_law', 'legislation']).optional() });
    const input = (sdl: string) => buildSchema(`${sdl} type Query { x: Int }`).getType('Request') as GraphQLInputObjectType;
    expect(compareShapes(request, input('enum Namespace { case_law legislation } input Request { topK: Int namespace: Namespace }')).drifts).toEqual([]);
    expect(compareShapes(request, input('input Request { top_k: Int namespace: String }')).drifts).toEqual([
      'Request.namespace: REST enum [case_law, legislation], GraphQL any string',
      'Request.topK: only in REST',
      'Request.top_k: only in GraphQL',
    ]);
  });

  it('finds nothing when the two sides agree, nested types included', () => {
    const report = compareShapes(ticket, fixtureType());
    expect(report.drifts).toEqual([]);
    expect([...report.compared].sort()).toEqual(['Owner', 'Ticket']);
  });

  it('fails on a renamed field', () => {
    expect(compareShapes(ticket, fixtureType(FIXTURE_SDL.replace('title: String!', 'headline: String!'))).drifts).toEqual([
      'Ticket.headline: only in GraphQL',
      'Ticket.title: only in REST',
    ]);
  });

  it('fails on flipped nullability, either way', () => {
    expect(compareShapes(ticket, fixtureType(FIXTURE_SDL.replace('note: String', 'note: String!'))).drifts).toEqual([
      'Ticket.note: REST nullable, GraphQL non-null',
    ]);
    expect(compareShapes(ticket.extend({ title: z.string().optional() }), fixtureType()).drifts).toEqual([
      'Ticket.title: REST nullable, GraphQL non-null',
    ]);
  });

  it('fails on an enum value added on either side', () => {
    expect(compareShapes(ticket, fixtureType(FIXTURE_SDL.replace('enum Status { open closed }', 'enum Status { open closed archived }'))).drifts).toEqual([
      'Ticket.status: enum values differ: REST [open, closed], GraphQL [open, closed, archived]',
    ]);
    expect(compareShapes(ticket.extend({ status: z.enum(['open', 'closed', 'archived']) }), fixtureType()).drifts).toEqual([
      'Ticket.status: enum values differ: REST [open, closed, archived], GraphQL [open, closed]',
    ]);
  });

  it('fails on list-ness, scalar kind and a nested field', () => {
    const changed = FIXTURE_SDL.replace('tags: [String!]!', 'tags: String!').replace('votes: Int!', 'votes: Float!').replace('name: String', 'name: Int');
    expect(compareShapes(ticket, fixtureType(changed)).drifts).toEqual([
      'Owner.name: REST string, GraphQL int',
      'Ticket.tags: REST a list, GraphQL not a list',
      'Ticket.votes: REST int, GraphQL float',
    ]);
  });

  it('skips a field listed as an exception', () => {
    const renamed = fixtureType(FIXTURE_SDL.replace('title: String!', 'headline: String!'));
    expect(compareShapes(ticket, renamed, { 'Ticket.title': 'fixture', 'Ticket.headline': 'fixture' }).drifts).toEqual([]);
  });

  it("fails on a real subgraph type when its REST shape changes", async () => {
    const accounts = (await buildSubgraphs(schemaOnlyServices())).find((s) => s.name === 'accounts')!;
    const usage = accounts.schema.getType('UsageType');
    if (!isObjectType(usage)) throw new Error('UsageType is missing');
    expect(compareShapes(usageRecordSchema, usage).drifts).toEqual([]);
    const changed = usageRecordSchema
      .omit({ plan: true })
      .extend({ plan_name: z.string(), period_end: z.string(), period_type: z.enum(['rolling_30d', 'billing_period', 'lifetime']) });
    expect(compareShapes(changed, usage).drifts).toEqual([
      'UsageType.period_end: REST required, GraphQL nullable',
      'UsageType.plan: only in GraphQL',
      'UsageType.plan_name: only in REST',
    ]);
  });
});
