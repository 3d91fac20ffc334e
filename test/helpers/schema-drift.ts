/**
 * The drift check between a REST shape (a zod object schema) and the GraphQL type that mirrors
 * it (issue #35, item 11). Output fields are named as REST names them (snake_case); input fields
 * and arguments are camelCase (item 7), so an input field `topK` is paired with REST's `top_k`.
 * For each field it compares presence, nullability (GraphQL nullable exactly when zod allows null
 * or absence, a default included), list-ness, the scalar kind and enum value sets (a GraphQL
 * enum's values are the REST values its names stand for: `user_erase` is `user.erase`); a field
 * that is an object on both sides is compared in turn, so only the root types need a pair in the
 * table (`schema-drift.test.ts`). A zod enum behind a GraphQL String is a drift in an input (the
 * closed sets clients send are enums, item 7) and allowed in an output (answers keep String);
 * item nullability inside lists is not compared.
 */
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLType,
} from 'graphql';
import type { z } from 'zod';
import { camelCase } from '../../src/graphql/argument-names.js';

type Kind = 'string' | 'int' | 'float' | 'boolean' | 'object' | 'unknown';

/** What the drift check reads of one side's field. */
export interface FieldShape {
  nullable: boolean;
  list: boolean;
  kind: Kind;
  /** Enum or literal values, when the field has a closed set. */
  values?: string[];
  /** The zod object (zod side) or the GraphQL type (GraphQL side) of an object field. */
  zodObject?: z.ZodObject;
  graphqlType?: GraphQLObjectType | GraphQLInputObjectType;
}

/** `Type.field` → why that field is not compared (a field computed or shaped on purpose). */
export type DriftExceptions = Readonly<Record<string, string>>;

export interface DriftReport {
  /** One line per drift: `Type.field: what differs`. */
  drifts: string[];
  /** Every GraphQL type compared, the nested ones included. */
  compared: Set<string>;
}

/** Compares a zod object schema with a GraphQL object or input type, nested objects included. */
export function compareShapes(
  zodSchema: z.ZodObject,
  graphqlType: GraphQLObjectType | GraphQLInputObjectType,
  exceptions: DriftExceptions = {},
  report: DriftReport = { drifts: [], compared: new Set() },
): DriftReport {
  if (report.compared.has(graphqlType.name)) return report;
  report.compared.add(graphqlType.name);
  const input = isInputObjectType(graphqlType);
  // input fields are camelCase: pair REST's names in that spelling
  const restFields = Object.fromEntries(Object.entries(zodSchema.shape as Record<string, z.ZodType>).map(([name, field]) => [input ? camelCase(name) : name, field]));
  const graphqlFields = graphqlType.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>;
  const names = new Set([...Object.keys(restFields), ...Object.keys(graphqlFields)]);
  for (const name of [...names].sort()) {
    const where = `${graphqlType.name}.${name}`;
    if (exceptions[where] !== undefined) continue;
    const rest = restFields[name];
    const graphql = graphqlFields[name];
    if (!rest) report.drifts.push(`${where}: only in GraphQL`);
    else if (!graphql) report.drifts.push(`${where}: only in REST`);
    else compareField(where, zodFieldShape(rest), graphqlFieldShape(graphql.type), exceptions, report, input);
  }
  return report;
}

/** Compares one field (or argument); `input`: a value clients send, whose closed sets must be enums. */
export function compareField(where: string, rest: FieldShape, graphql: FieldShape, exceptions: DriftExceptions, report: DriftReport, input = false): void {
  const say = (what: string) => report.drifts.push(`${where}: ${what}`);
  if (rest.nullable !== graphql.nullable) say(`REST ${rest.nullable ? 'nullable' : 'required'}, GraphQL ${graphql.nullable ? 'nullable' : 'non-null'}`);
  if (rest.list !== graphql.list) say(`REST ${rest.list ? 'a list' : 'not a list'}, GraphQL ${graphql.list ? 'a list' : 'not a list'}`);
  if (graphql.kind === 'unknown' || rest.kind === 'unknown') return; // a JSON scalar or an open zod value: no kind to compare
  if (rest.kind !== graphql.kind) {
    say(`REST ${rest.kind}, GraphQL ${graphql.kind}`);
    return;
  }
  if (graphql.values && rest.values && !sameSet(rest.values, graphql.values)) {
    say(`enum values differ: REST [${rest.values.join(', ')}], GraphQL [${graphql.values.join(', ')}]`);
  }
  if (graphql.values && !rest.values) say(`GraphQL enum [${graphql.values.join(', ')}], REST any ${rest.kind}`);
  if (input && rest.values && !graphql.values && rest.kind === 'string') say(`REST enum [${rest.values.join(', ')}], GraphQL any string`);
  if (rest.zodObject && graphql.graphqlType) compareShapes(rest.zodObject, graphql.graphqlType, exceptions, report);
}

/** Reads a zod field: unwraps optional, nullable, default, lax preprocessing and other wrappers. */
export function zodFieldShape(schema: z.ZodType): FieldShape {
  let nullable = false;
  let current = schema;
  for (;;) {
    const def = current._zod.def as any;
    if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) {
      nullable = true;
      current = def.innerType;
    } else if (['readonly', 'catch', 'nonoptional'].includes(def.type)) current = def.innerType;
    else if (def.type === 'pipe') current = def.in._zod.def.type === 'transform' ? def.out : def.in; // preprocess: the inner schema
    else if (def.type === 'lazy') current = def.getter();
    else break;
  }
  const def = current._zod.def as any;
  if (def.type === 'array') return { ...zodFieldShape(def.element), nullable, list: true };
  return { ...zodKind(current), nullable, list: false };
}

function zodKind(schema: z.ZodType): Pick<FieldShape, 'kind' | 'values' | 'zodObject'> {
  const def = schema._zod.def as any;
  switch (def.type) {
    case 'string':
      return { kind: 'string' };
    case 'number':
      return { kind: (schema as z.ZodNumber).isInt ? 'int' : 'float' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'string', values: Object.values(def.entries).map(String) };
    case 'literal': {
      const values = def.values as unknown[];
      const kind = typeof values[0] === 'boolean' ? 'boolean' : typeof values[0] === 'number' ? 'int' : 'string';
      return { kind, values: values.map(String) };
    }
    case 'object':
      return { kind: 'object', zodObject: schema as z.ZodObject };
    default:
      return { kind: 'unknown' }; // records, unions, any: a JSON scalar on the GraphQL side
  }
}

/** Reads a GraphQL field type. ID counts as a string (the REST ids are strings). */
export function graphqlFieldShape(type: GraphQLType): FieldShape {
  const nullable = !isNonNullType(type);
  const list = isListType(getNullableType(type));
  const named = getNamedType(type);
  if (isEnumType(named)) return { nullable, list, kind: 'string', values: named.getValues().map((v) => String(v.value)) };
  if (isObjectType(named) || isInputObjectType(named)) return { nullable, list, kind: 'object', graphqlType: named };
  if (isScalarType(named)) {
    const kinds: Record<string, Kind> = { String: 'string', ID: 'string', Int: 'int', Float: 'float', Boolean: 'boolean' };
    return { nullable, list, kind: kinds[named.name] ?? 'unknown' };
  }
  return { nullable, list, kind: 'unknown' };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().every((value, i) => value === [...b].sort()[i]);
}
