/**
 * Federated `Workspace` and `User` references on the teams subgraph resolved once per request
 * (issue 35, item 10), on a real PGlite database: `_entities` with 10 or 100 references (the
 * caller's workspace, other workspaces' ids, users with their `workspace`) runs the same few SQL
 * statements (counted at the ORM's connection), and a request never sees another's answer.
 */
import { randomUUID } from 'node:crypto';
import { graphql, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { requestContexts } from '../../src/context.js';
import { graphqlContext } from '../../src/graphql/context.js';
import { schemaOnlyServices } from '../../src/graphql/subgraphs.js';
import { TeamViewsService } from '../../src/modules/teams/team-views.service.js';
import { addMember, createAccount, createTeam, type TestAccount } from '../../test/helpers/team-fixtures.js';
import { openMigratedTestDatabase, type TestDatabase, countStatements } from '../../test/helpers/test-databases.js';
import { buildTeamsSubgraph } from './index.js';

const ENTITIES = /* GraphQL */ `
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) {
      ... on Workspace { __typename id seat_limit }
      ... on UserType { __typename id workspace { id } }
    }
  }
`;

type Entity = { __typename: string; id: string; seat_limit?: number; workspace?: { id: string } | null } | null;

describe('federated Workspace and User references on the teams subgraph (PGlite)', () => {
  let db: TestDatabase;
  let schema: GraphQLSchema;
  let team: { id: string; owner: TestAccount };
  let member: TestAccount;

  beforeAll(async () => {
    db = await openMigratedTestDatabase('pglite');
    const views = new TeamViewsService({ orm: db.orm, baseUrl: 'http://127.0.0.1', verifier: { validAfter: () => new Date(0) } });
    schema = await buildTeamsSubgraph({ ...schemaOnlyServices().teams!, views });
    team = await createTeam(db.orm, `owner-${randomUUID()}@example.org`, 5);
    member = await createAccount(db.orm, `member-${randomUUID()}@example.org`);
    await addMember(db.orm, team.id, member.id);
  }, 120_000);
  afterAll(async () => {
    await db?.dispose();
  });

  /** The SQL statements the platform's connection executed while `work` ran. */
  const statementsOf = (work: () => Promise<unknown>) => countStatements(db.orm, work);

  /** `n` references in a fresh request of `caller`: its own workspace, a stranger's, itself and another user, in turn. */
  async function resolve(caller: TestAccount, n: number): Promise<{ entities: Entity[]; statements: number }> {
    const kinds = [
      { __typename: 'Workspace', id: team.id },
      { __typename: 'Workspace', id: randomUUID() },
      { __typename: 'UserType', id: caller.id },
      { __typename: 'UserType', id: randomUUID() },
    ];
    const representations = Array.from({ length: n }, (_, i) => kinds[i % kinds.length]);
    // a new context per request, as the doors build them (createAccount's would be shared)
    const ctx = requestContexts(db.orm).forCaller(caller.ctx.caller);
    let result: ExecutionResult<{ _entities: Entity[] }> | undefined;
    const statements = await statementsOf(async () => {
      result = (await graphql({ schema, source: ENTITIES, variableValues: { representations }, contextValue: graphqlContext(ctx) })) as typeof result;
    });
    expect(result!.errors).toBeUndefined();
    return { entities: result!.data!._entities, statements };
  }

  it('runs the same few SQL statements for 10 and for 100 references', async () => {
    const ten = await resolve(team.owner, 10);
    const hundred = await resolve(team.owner, 100);
    const expected = (n: number): Entity[] =>
      Array.from({ length: n }, (_, i) => [
        { __typename: 'Workspace', id: team.id, seat_limit: 5 },
        null,
        { __typename: 'UserType', id: team.owner.id, workspace: { id: team.id } },
        { __typename: 'UserType', id: expect.any(String), workspace: null },
      ][i % 4]!);
    expect(ten.entities).toEqual(expected(10));
    expect(hundred.entities).toEqual(expected(100));
    console.log(`Workspace references: ${ten.statements} SQL statements for 10, ${hundred.statements} for 100`);
    // one overview (membership, workspace, members, invites, domains) whatever the list's length
    expect(ten.statements).toBeLessThanOrEqual(8);
    expect(hundred.statements).toBeLessThanOrEqual(8);
  }, 120_000);

  it("answers each request with its own caller's workspace", async () => {
    const owner = await resolve(team.owner, 4);
    const stranger = await createAccount(db.orm, `stranger-${randomUUID()}@example.org`);
    const outside = await resolve(stranger, 4);
    expect(owner.entities[0]).toEqual({ __typename: 'Workspace', id: team.id, seat_limit: 5 });
    expect(outside.entities).toEqual([null, null, { __typename: 'UserType', id: stranger.id, workspace: null }, expect.objectContaining({ workspace: null })]);
    const asMember = await resolve(member, 4);
    expect(asMember.entities[2]).toEqual({ __typename: 'UserType', id: member.id, workspace: { id: team.id } });
  }, 120_000);
});
