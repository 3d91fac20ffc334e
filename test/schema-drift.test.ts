/**
 * Issue #35, item 11: every GraphQL object and input type of every subgraph is paired with the
 * zod schema of the REST shape it mirrors, and the pair is compared (field names, nullability,
 * list-ness, scalar kinds, enum values: `test/helpers/schema-drift.ts`). A type with no pair and
 * no stated reason fails, so a new type cannot escape; a fixture shows the check fails on drift.
 */
import 'reflect-metadata';
import { getNamedType, isEnumType, isInputObjectType, isObjectType, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { buildSubgraphs, schemaOnlyServices, type BuiltSubgraph } from '../src/graphql/subgraphs.js';
import { camelCase } from '../src/graphql/argument-names.js';
import { compareField, compareShapes, graphqlFieldShape, zodFieldShape } from './helpers/schema-drift.js';
import { ARGUMENT_PAIRS, DRIFT_EXCEPTIONS, SHAPE_PAIRS, TYPES_WITHOUT_REST_SHAPE } from './schema-drift.table.js';

/** Types federation and the root operations bring, not REST shapes. */
const NOT_SHAPES = new Set(['Query', 'Mutation', '_Service']);

function shapeTypes(subgraph: BuiltSubgraph): GraphQLNamedType[] {
  return Object.values(subgraph.schema.getTypeMap()).filter(
    (type) => (isObjectType(type) || isInputObjectType(type)) && !type.name.startsWith('__') && !NOT_SHAPES.has(type.name),
  );
}

describe('GraphQL types against their REST shapes', () => {
  let subgraphs: BuiltSubgraph[];
  beforeAll(async () => {
    subgraphs = await buildSubgraphs(schemaOnlyServices());
  });

  it('finds no drift in any subgraph', () => {
    const drifts: string[] = [];
    for (const pair of SHAPE_PAIRS) {
      const subgraph = subgraphs.find((s) => s.name === pair.subgraph)!;
      const type = subgraph.schema.getType(pair.type);
      if (!isObjectType(type) && !isInputObjectType(type)) {
        drifts.push(`${pair.subgraph}/${pair.type}: no such type`);
        continue;
      }
      drifts.push(...compareShapes(pair.schema, type, DRIFT_EXCEPTIONS[pair.subgraph]).drifts.map((d) => `${pair.subgraph}/${d}`));
    }
    expect(drifts).toEqual([]);
  });

  it('pairs every type of every subgraph, or says why it has no REST shape', () => {
    const unpaired: string[] = [];
    for (const subgraph of subgraphs) {
      const compared = new Set<string>();
      for (const pair of SHAPE_PAIRS.filter((p) => p.subgraph === subgraph.name)) {
        const type = subgraph.schema.getType(pair.type);
        if (isObjectType(type) || isInputObjectType(type)) compareShapes(pair.schema, type, DRIFT_EXCEPTIONS[pair.subgraph]).compared.forEach((name) => compared.add(name));
      }
      for (const type of shapeTypes(subgraph)) {
        const key = `${subgraph.name}/${type.name}`;
        if (!compared.has(type.name) && TYPES_WITHOUT_REST_SHAPE[key] === undefined) unpaired.push(key);
      }
    }
    expect(unpaired).toEqual([]);
  });

  it('gives every closed-set argument the REST set as a GraphQL enum, camelCase names everywhere', () => {
    const drifts: string[] = [];
    for (const pair of ARGUMENT_PAIRS) {
      const [root, name] = pair.field.split('.') as [string, string];
      const subgraph = subgraphs.find((s) => s.name === pair.subgraph)!;
      const arg = (subgraph.schema.getType(root) as GraphQLObjectType | undefined)?.getFields()[name]?.args.find((a) => a.name === pair.argument);
      if (!arg) drifts.push(`${pair.subgraph}/${pair.field}(${pair.argument}): no such argument`);
      else compareField(`${pair.subgraph}/${pair.field}(${pair.argument})`, zodFieldShape(pair.schema), graphqlFieldShape(arg.type), {}, { drifts, compared: new Set() }, true);
    }
    for (const subgraph of subgraphs) {
      for (const root of ['Query', 'Mutation']) {
        const type = subgraph.schema.getType(root) as GraphQLObjectType | undefined;
        for (const field of Object.values(type?.getFields() ?? {})) {
          for (const arg of field.args) {
            const where = `${subgraph.name}/${root}.${field.name}(${arg.name})`;
            if (arg.name !== camelCase(arg.name)) drifts.push(`${where}: not camelCase`);
            const paired = ARGUMENT_PAIRS.some((p) => p.subgraph === subgraph.name && p.field === `${root}.${field.name}` && p.argument === arg.name);
            if (isEnumType(getNamedType(arg.type)) && !paired) drifts.push(`${where}: an enum without a row in ARGUMENT_PAIRS`);
          }
        }
      }
      for (const type of shapeTypes(subgraph).filter(isInputObjectType)) {
        for (const name of Object.keys(type.getFields())) if (name !== camelCase(name)) drifts.push(`${subgraph.name}/${type.name}.${name}: not camelCase`);
      }
    }
    expect(drifts).toEqual([]);
  });
});
