/**
 * Reading the citation graph (citation-graph.entities.ts): who cites a document (filtered,
 * sorted, a page at a time), what a document cites, and how many documents cite each of a list.
 * Each is a bounded number of statements on the request's entity manager; `citation_link` is
 * read by its `(cited_id, citing_id)` index.
 */
import type { EntityManager } from '@mikro-orm/core';
import { ValidationError } from '../../../errors.js';
import type { CitedByQuery, CitedByResponse, CitesResponse } from './citator.schema.js';

export function selectRows<Row>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
  return em.getConnection().execute(sql, [...params], 'all', em.getTransactionContext()) as Promise<Row[]>;
}

/** Where a page ended: the last item's sort values (tier, date, id), opaque to the client. */
type Cursor = [tier: number, date: string, id: string];

/** Undated documents sort after every date (newest first); decisions without a tier after tier 3. */
const NO_TIER = 9;
const TIER = `coalesce(d.court_tier, ${NO_TIER})`;
const DATE = `coalesce(d.date, '')`;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 3 && Number.isInteger(parsed[0]) && typeof parsed[1] === 'string' && typeof parsed[2] === 'string') {
      return parsed as Cursor;
    }
  } catch {
    // not base64url JSON: refused below
  }
  throw new ValidationError([{ type: 'value_error', loc: ['cursor'], msg: 'Value error, not a cursor of this list', input: value }]);
}

/** The filters' SQL on the citing document `d` and their parameters (also the per-year counts', cited-by-years.ts). */
export function filterSql(query: Pick<CitedByQuery, 'namespace' | 'country' | 'court' | 'court_tier' | 'date_start' | 'date_end'>): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (query.namespace) add('d.namespace = ?', query.namespace);
  if (query.country) add('upper(d.country) = upper(?)', query.country);
  if (query.court) add('d.court = ?', query.court);
  if (query.court_tier) add('d.court_tier = ?', query.court_tier);
  // Compared as ISO text: `2024` (a year alone) falls before `2024-01-01`; `<= end || '~'` keeps a datetime of the end day.
  if (query.date_start) add('d.date >= ?', query.date_start);
  if (query.date_end) add("d.date <= cast(? as text) || '~'", query.date_end);
  return { sql: clauses.map((c) => ` and ${c}`).join(''), params };
}

/** Keyset condition after `cursor` in the order of `sort` (newest first; by tier: highest court first, then newest). */
function afterSql(sort: CitedByQuery['sort'], cursor: Cursor | null): { sql: string; params: unknown[] } {
  if (!cursor) return { sql: '', params: [] };
  const [tier, date, id] = cursor;
  const byDate = `(${DATE} < ? or (${DATE} = ? and d.id > ?))`;
  if (sort === 'date') return { sql: ` and ${byDate}`, params: [date, date, id] };
  return { sql: ` and (${TIER} > ? or (${TIER} = ? and ${byDate}))`, params: [tier, tier, date, date, id] };
}

interface CitedByRow {
  id: string;
  source: string;
  source_id: string;
  namespace: string;
  country: string;
  language: string | null;
  court: string | null;
  court_tier: number | null;
  date: string | null;
  title: string;
  snippet: string;
  highlight_start: number;
  highlight_end: number;
  pinpoint: string;
  citation: string;
  start: number;
  end: number;
  occurrences: string | number;
}

/** The documents citing `citedId`, one item per citing document (its first citation of it), a page at a time. */
export async function citedByPage(em: EntityManager, citedId: string, query: CitedByQuery): Promise<CitedByResponse> {
  const filters = filterSql(query);
  const after = afterSql(query.sort, query.cursor ? decodeCursor(query.cursor) : null);
  const order = query.sort === 'date' ? `${DATE} desc, d.id` : `${TIER}, ${DATE} desc, d.id`;
  const firsts = `select citing_id, min(seq) as seq, count(*) as occurrences from citation_link where cited_id = ? group by citing_id`;
  const rows = await selectRows<CitedByRow>(
    em,
    `select d.id, d.source, d.source_id, d.namespace, d.country, d.language, d.court, d.court_tier, d.date, d.title,
            l.snippet, l.highlight_start, l.highlight_end, l.pinpoint, l.citation, l.start, l."end", f.occurrences
       from (${firsts}) f
       join citing_document d on d.id = f.citing_id
       join citation_link l on l.citing_id = f.citing_id and l.seq = f.seq
      where true${filters.sql}${after.sql}
      order by ${order}
      limit ?`,
    [citedId, ...filters.params, ...after.params, query.limit + 1],
  );
  const [counts] = await selectRows<{ everyone: string | number; passing: string | number }>(
    em,
    `select count(*) as everyone, count(*) filter (where true${filters.sql}) as passing
       from (select distinct citing_id from citation_link where cited_id = ?) f join citing_document d on d.id = f.citing_id`,
    [...filters.params, citedId],
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    cited_by_count: Number(counts?.everyone ?? 0),
    total: Number(counts?.passing ?? 0),
    items: page.map((r) => ({
      document: { id: r.id, source: r.source, source_id: r.source_id, namespace: r.namespace, country: r.country, language: r.language, court: r.court, court_tier: r.court_tier, date: r.date, title: r.title },
      snippet: r.snippet,
      highlight: { start: r.highlight_start, end: r.highlight_end },
      pinpoint: r.pinpoint,
      citation: r.citation,
      start: r.start,
      end: r.end,
      occurrences: Number(r.occurrences),
    })),
    next_cursor: rows.length > query.limit && last ? encodeCursor([last.court_tier ?? NO_TIER, last.date ?? '', last.id]) : null,
  };
}

/** What `citingId` cites: its links in order of appearance, then its unresolved citations. */
export async function citesOf(em: EntityManager, citingId: string): Promise<CitesResponse> {
  const links = await selectRows<{ cited_id: string; cited_source: string; cited_source_id: string; start: number; end: number; pinpoint: string; citation: string; carried: boolean }>(
    em,
    `select cited_id, cited_source, cited_source_id, start, "end", pinpoint, citation, carried from citation_link where citing_id = ? order by seq`,
    [citingId],
  );
  const unresolved = await selectRows<CitesResponse['unresolved'][number]>(
    em,
    `select start, "end", citation, reason from unresolved_citation where citing_id = ? order by seq`,
    [citingId],
  );
  return {
    links: links.map((l) => ({ cited: { id: l.cited_id, source: l.cited_source, source_id: l.cited_source_id }, start: l.start, end: l.end, pinpoint: l.pinpoint, citation: l.citation, carried: Boolean(l.carried) })),
    unresolved,
  };
}

/** How many documents cite each of `ids` (0 for none), in one statement. */
export async function citedByCounts(em: EntityManager, ids: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = await selectRows<{ cited_id: string; n: string | number }>(
    em,
    `select cited_id, count(distinct citing_id) as n from citation_link where cited_id in (${ids.map(() => '?').join(', ')}) group by cited_id`,
    ids,
  );
  for (const row of rows) counts.set(row.cited_id, Number(row.n));
  return counts;
}
