/**
 * Reads of `analytics_account_day`: the day cells of a dimension over a range (each measure's sum
 * and its distinct accounts, and the accounts of a released cell when asked, for distinct accounts
 * over a week or month), and the released sums of the grid. Counts come back as numbers here:
 * PostgreSQL's bigint arrives as a string, PGlite's as a number.
 */
import type { EntityManager } from '@mikro-orm/core';
import { placeholders, sqlRows } from '../../util/raw-sql.js';
import type { CellKind, Measures } from './analytics-events.js';
import type { DayMeasure, ReleasedPart } from './analytics-privacy.js';
import { MIN_DISTINCT_ACCOUNTS } from './analytics-privacy.js';

export const MEASURES = ['searches', 'hits', 'documents', 'resolutions', 'calls'] as const satisfies readonly (keyof Measures)[];

/** One dimension on one day: every measure's sum and distinct accounts, and the accounts of any activity. */
export interface DayCell {
  scope: string;
  item: string;
  day: string;
  accounts: number;
  measures: Record<keyof Measures, DayMeasure>;
  /** The accounts of a released cell (asked for with `withAccounts`), for distinct accounts over a period. */
  releasedAccounts?: string[];
}

export interface CellFilter {
  kind: CellKind;
  /** Null: every scope. */
  scopes: readonly string[] | null;
  /** Null: every item. */
  item: string | null;
  /** Grid cells only: the countries (first part of the item) to keep. */
  gridCountries?: readonly string[];
  /** Grid cells only: the detail kind to keep (`doc:`, `match:`). */
  gridDetail?: string;
  from: string;
  to: string;
}

function where(filter: CellFilter, alias = ''): { sql: string; params: unknown[] } {
  const a = alias ? `${alias}.` : '';
  const parts = [`${a}kind = ?`, `${a}day between ? and ?`];
  const params: unknown[] = [filter.kind, filter.from, filter.to];
  if (filter.scopes) {
    parts.push(`${a}scope in (${placeholders(filter.scopes)})`);
    params.push(...filter.scopes);
  }
  if (filter.item !== null) {
    parts.push(`${a}item = ?`);
    params.push(filter.item);
  }
  if (filter.gridCountries) {
    parts.push(`split_part(${a}item, '|', 1) in (${placeholders(filter.gridCountries)})`);
    params.push(...filter.gridCountries);
  }
  if (filter.gridDetail !== undefined) {
    parts.push(`strpos(${a}item, ?) > 0`);
    params.push(`|${filter.gridDetail}`);
  }
  return { sql: parts.join(' and '), params };
}

/** The day cells of the dimensions `filter` selects. */
export async function dayCells(em: EntityManager, filter: CellFilter, withAccounts = false): Promise<DayCell[]> {
  const { sql, params } = where(filter);
  const measures = MEASURES.map((m) => `sum(${m}) as ${m}, count(*) filter (where ${m} > 0) as ${m}_accounts`).join(', ');
  // an account key holds no space (a uuid, `anonymous`, `erased:<uuid>`): the list travels as one string
  const accounts = withAccounts ? `, case when count(*) >= ${MIN_DISTINCT_ACCOUNTS} then string_agg(account, ' ') end as released_accounts` : '';
  const rows = await sqlRows<Record<string, string | number | null>>(
    em,
    `select scope, item, to_char(day, 'YYYY-MM-DD') as day, count(*) as accounts, ${measures}${accounts} from analytics_account_day where ${sql} group by scope, item, day`,
    params,
  );
  return rows.map((r) => ({
    scope: String(r.scope),
    item: String(r.item),
    day: String(r.day),
    accounts: Number(r.accounts),
    measures: Object.fromEntries(MEASURES.map((m) => [m, { sum: Number(r[m]), accounts: Number(r[`${m}_accounts`]) }])) as DayCell['measures'],
    ...(typeof r.released_accounts === 'string' ? { releasedAccounts: r.released_accounts.split(' ') } : {}),
  }));
}

/** The released part of one group's cells on one day: see analytics-privacy.ts `rollUpReleased`. */
export type GridMeasures = Record<'hits' | 'documents' | 'resolutions', ReleasedPart>;

const GRID_MEASURES = ['hits', 'documents', 'resolutions'] as const;

/**
 * Hits, documents and resolutions per source or per country and day, each the sum of the released
 * grid cells (source, country, detail, day) only: a cell is released when its measure comes from
 * at least MIN_DISTINCT_ACCOUNTS accounts. `group → day → measures`.
 */
export async function gridSums(em: EntityManager, by: 'source' | 'country', keys: readonly string[], from: string, to: string): Promise<Map<string, Map<string, GridMeasures>>> {
  const filter: CellFilter = { kind: 'grid', scopes: by === 'source' ? keys : null, item: null, from, to, ...(by === 'country' ? { gridCountries: keys } : {}) };
  const { sql, params } = where(filter);
  const perCell = GRID_MEASURES.map((m) => `sum(${m}) as ${m}, count(*) filter (where ${m} > 0) as ${m}_n`).join(', ');
  const perGroup = GRID_MEASURES.map(
    (m) => `coalesce(sum(${m}) filter (where ${m}_n >= ${MIN_DISTINCT_ACCOUNTS}), 0) as ${m}, count(*) filter (where ${m}_n >= ${MIN_DISTINCT_ACCOUNTS}) as ${m}_shown, count(*) filter (where ${m}_n between 1 and ${MIN_DISTINCT_ACCOUNTS - 1}) as ${m}_withheld`,
  );
  const group = by === 'source' ? 'scope' : "split_part(item, '|', 1)";
  const rows = await sqlRows<Record<string, string | number>>(
    em,
    `with cells as (select scope, item, day, ${perCell} from analytics_account_day where ${sql} group by scope, item, day)
     select ${group} as grp, to_char(day, 'YYYY-MM-DD') as day, ${perGroup.join(', ')} from cells group by 1, day`,
    params,
  );
  const sums = new Map<string, Map<string, GridMeasures>>();
  for (const r of rows) {
    const days = sums.get(String(r.grp)) ?? new Map<string, GridMeasures>();
    sums.set(String(r.grp), days);
    const part = (m: string): ReleasedPart => ({ sum: Number(r[m]), shown: Number(r[`${m}_shown`]), withheld: Number(r[`${m}_withheld`]) });
    days.set(String(r.day), { hits: part('hits'), documents: part('documents'), resolutions: part('resolutions') });
  }
  return sums;
}

/** Namespace and country of fetched documents of `source`. */
export async function documentMetadata(em: EntityManager, source: string, sourceIds: readonly string[]): Promise<Map<string, { namespace: string; country: string }>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await sqlRows<{ source_id: string; namespace: string; country: string }>(
    em,
    `select source_id, namespace, country from analytics_document where source = ? and source_id in (${placeholders(sourceIds)})`,
    [source, ...sourceIds],
  );
  return new Map(rows.map((r) => [r.source_id, { namespace: r.namespace, country: r.country }]));
}
