/**
 * Filters of the embedded engine: the columns both legs filter on (copied onto every chunk and
 * vector row, so each leg prefilters its own table) and the SQL `where` built from a request's
 * filters. Values are quoted here and nowhere else.
 */
import { Field, Int32, Utf8 } from 'apache-arrow';
import type { EngineFilters } from '../search-engine.js';
import { intOrNull, nullableString, type FilterValues } from '../filter-values.js';

export { filterValues, intOrNull, nullableString, type FilterValues } from '../filter-values.js';

/** Largest number of literals in one `IN (...)` list. */
const IN_LIST_MAX = 1000;

/** Columns both legs filter on, copied onto every chunk and vector row. */
export const FILTER_STRING_COLUMNS = ['namespace', 'country', 'source', 'language', 'date', 'court', 'jurisdiction'] as const;

export const utf8 = (name: string, nullable = true) => new Field(name, new Utf8(), nullable);

/** Arrow fields of the filter columns (chunks and vectors tables). */
export const filterFields = () => [
  ...FILTER_STRING_COLUMNS.map((c) => utf8(c, c === 'namespace' || c === 'country' || c === 'source' ? false : true)),
  new Field('court_tier', new Int32(), true),
];

/** A SQL string literal (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** `column IN (...)` conditions of at most IN_LIST_MAX values each (one query per condition). */
export function inLists(column: string, values: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += IN_LIST_MAX) {
    out.push(`${column} IN (${values.slice(i, i + IN_LIST_MAX).map(sqlString).join(', ')})`);
  }
  return out;
}

/** The SQL `where` of the filters (used as a prefilter by both legs). */
export function buildWhere(filters: EngineFilters): string {
  const parts = [`namespace = ${sqlString(filters.namespace)}`];
  if (filters.countries && filters.countries.length > 0) parts.push(`country IN (${filters.countries.map(sqlString).join(', ')})`);
  if (filters.sources && filters.sources.length > 0) parts.push(`source IN (${filters.sources.map(sqlString).join(', ')})`);
  if (filters.court !== undefined && filters.court !== null) parts.push(`court = ${sqlString(filters.court)}`);
  if (filters.courtTier !== undefined && filters.courtTier !== null) {
    if (!Number.isInteger(filters.courtTier)) throw new Error(`courtTier must be an integer (got ${filters.courtTier})`);
    parts.push(`court_tier = ${filters.courtTier}`);
  }
  if (filters.jurisdiction !== undefined && filters.jurisdiction !== null) parts.push(`jurisdiction = ${sqlString(filters.jurisdiction)}`);
  if (filters.language !== undefined && filters.language !== null) parts.push(`language = ${sqlString(filters.language)}`);
  if (filters.dateStart) parts.push(`\`date\` >= ${sqlString(filters.dateStart)}`);
  if (filters.dateEnd) parts.push(`\`date\` <= ${sqlString(filters.dateEnd)}`);
  return parts.join(' AND ');
}

/** The filter columns of a stored `documents` row. */
export function filterValuesOfRow(row: Record<string, unknown>): FilterValues {
  return {
    namespace: String(row.namespace),
    country: String(row.country),
    source: String(row.source),
    language: nullableString(row.language),
    date: nullableString(row.date),
    court: nullableString(row.court),
    jurisdiction: nullableString(row.jurisdiction),
    court_tier: intOrNull(row.court_tier),
  };
}

/** The part of an Arrow table `plainRows` reads (LanceDB bundles its own apache-arrow). */
interface ArrowColumns {
  numRows: number;
  schema: { fields: { name: string }[] };
  getChild(name: string): Iterable<unknown> | null;
}

/**
 * A query's result rows as plain objects, read column by column. LanceDB's `toArray()` gives
 * Arrow row proxies whose every field access walks Arrow's visitors: on the search path (a few
 * hundred candidate rows per request) that was a measurable share of the main thread.
 */
export async function plainRows<T>(query: { toArrow(): Promise<ArrowColumns> }): Promise<T[]> {
  const table = await query.toArrow();
  const rows = Array.from({ length: table.numRows }, () => ({}) as Record<string, unknown>);
  for (const { name } of table.schema.fields) {
    let i = 0;
    for (const value of table.getChild(name) ?? []) rows[i++][name] = value;
  }
  return rows as T[];
}
