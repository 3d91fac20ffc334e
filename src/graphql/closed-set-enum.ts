/**
 * GraphQL enums for the closed sets of the REST contract (issue #35, item 7): namespaces, result
 * details, plans, roles, feedback statuses, audit actions… An argument typed by one of these is
 * refused by GraphQL validation (GRAPHQL_VALIDATION_FAILED) before any resolver runs, and
 * generated clients get a union of literals rather than `string`.
 *
 * Each value is spelled as REST spells it. GraphQL names allow only `[_A-Za-z][_0-9A-Za-z]*` and
 * not true/false/null, so a value with another character writes it as `_` (`user.erase` is
 * `user_erase`); the resolver still receives the REST value (`user.erase`), so the services see
 * the REST spelling only. Two values that would map to one name fail at start-up.
 */
import { registerEnumType } from 'type-graphql';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const RESERVED = new Set(['true', 'false', 'null']);

/** The GraphQL name of a REST value: itself when GraphQL allows it, else the mapping above. */
export function graphqlEnumName(value: string): string {
  if (GRAPHQL_NAME.test(value) && !RESERVED.has(value)) return value;
  const name = value.replace(/[^_0-9A-Za-z]/g, '_');
  return /^[0-9]/.test(name) || RESERVED.has(name) ? `_${name}` : name;
}

/**
 * Registers a type-graphql enum whose GraphQL names are the REST values (mapped where GraphQL
 * needs it) and whose internal values are the REST values themselves. Returns the enum object to
 * pass to `@Arg(name, () => TheEnum)` / `@Field(() => TheEnum)`.
 */
export function closedSetEnum<const V extends string>(name: string, values: readonly V[], description: string): Record<string, V> {
  const entries: Record<string, V> = {};
  for (const value of values) {
    const key = graphqlEnumName(value);
    if (entries[key] !== undefined) throw new Error(`GraphQL enum ${name}: "${entries[key]}" and "${value}" both map to ${key}`);
    entries[key] = value;
  }
  registerEnumType(entries, { name, description });
  return entries;
}
