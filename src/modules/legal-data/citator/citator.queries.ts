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

/** Where a page ended: the last item's sort values (tier, date, id; and its relevance under `relevance`), opaque to the client. */
type Cursor = [tier: number, date: string, id: string, relevance?: number];

/** Undated documents sort after every date (newest first); decisions without a tier after tier 3. */
const NO_TIER = 9;
const TIER = `coalesce(d.court_tier, ${NO_TIER})`;
const DATE = `coalesce(d.date, '')`;

/** Words of `q` the relevance sort counts (the first ones; more would only lengthen the statement). */
const MAX_RELEVANCE_TERMS = 8;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: string, sort: CitedByQuery['sort']): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    const length = sort === 'relevance' ? 4 : 3;
    if (Array.isArray(parsed) && parsed.length === length && Number.isInteger(parsed[0]) && typeof parsed[1] === 'string' && typeof parsed[2] === 'string' && (length === 3 || Number.isInteger(parsed[3]))) {
      return parsed as Cursor;
    }
  } catch {
    // not base64url JSON: refused below
  }
  throw new ValidationError([{ type: 'value_error', loc: ['cursor'], msg: 'Value error, not a cursor of this list', input: value }]);
}

/** `%`, `_` and the escape character itself, escaped for `like … escape '\\'`. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The relevance of a citing passage to `q` (`sort=relevance`), as SQL on the link `l`: how many
 * distinct words of `q` (letters or digits, 2 characters or more, case folded, the first
 * MAX_RELEVANCE_TERMS) the passage holds, plus one when it holds all of `q` as written (a phrase
 * of two words or more). Cheap on purpose: a substring test per word on the ~330-character
 * passage of each link of one cited document, no index or stemming (`Mangel` finds `Mangels`
 * but not `Mängel`); ties, and every passage without `q`, fall back to court tier then date.
 */
export function relevanceSql(query: Pick<CitedByQuery, 'sort' | 'q'>): { sql: string; params: unknown[] } {
  const q = query.sort === 'relevance' ? (query.q ?? '').toLowerCase() : '';
  const words = [...new Set(q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2))].slice(0, MAX_RELEVANCE_TERMS);
  if (words.length === 0) return { sql: '0', params: [] };
  const contains = `(case when lower(l.snippet) like ? escape '\\' then 1 else 0 end)`;
  const phrase = q.trim().replace(/\s+/g, ' ');
  const terms = words.length > 1 ? [...words, phrase] : words;
  return { sql: `(${terms.map(() => contains).join(' + ')})`, params: terms.map((t) => `%${likeEscape(t)}%`) };
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

/** Keyset condition after `cursor` in the order of `sort` (newest first; by tier: highest court first, then newest; by relevance, then by tier). */
function afterSql(sort: CitedByQuery['sort'], cursor: Cursor | null): { sql: string; params: unknown[] } {
  if (!cursor) return { sql: '', params: [] };
  const [tier, date, id, relevance] = cursor;
  const byDate = `(${DATE} < ? or (${DATE} = ? and d.id > ?))`;
  if (sort === 'date') return { sql: ` and ${byDate}`, params: [date, date, id] };
  const byTier = `(${TIER} > ? or (${TIER} = ? and ${byDate}))`;
  if (sort === 'court_tier') return { sql: ` and ${byTier}`, params: [tier, tier, date, date, id] };
  return { sql: ` and (f.relevance < ? or (f.relevance = ? and ${byTier}))`, params: [relevance, relevance, tier, tier, date, date, id] };
}

/** The `order by` of each sort (the keyset of afterSql, in the same order). */
const ORDER: Record<CitedByQuery['sort'], string> = {
  date: `${DATE} desc, d.id`,
  court_tier: `${TIER}, ${DATE} desc, d.id`,
  relevance: `f.relevance desc, ${TIER}, ${DATE} desc, d.id`,
};

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
  relevance: string | number;
}

/** A cited-by list asked for: `root` is the document asked about; `rollUp`: an act with its articles (`include_articles`). */
export interface CitedByAsk {
  root: string;
  rollUp: boolean;
}

/**
 * The links citing each asked document as SQL (`root`, the link `l`): those whose `cited_id` is the
 * root, and under `rollUp` those whose `cited_act_id` is (the act's own links and its articles').
 * The two branches never hold the same link (the first leaves out what the second reads), so
 * `union all` needs no deduplication; for a document that is not an act the second is empty.
 * Each branch is one lookup of its index, however many articles the act has.
 */
function linksOfAsked(columns: string): string {
  return `select a.root, ${columns} from asked a join citation_link l on l.cited_id = a.root where not (a.roll_up and l.cited_act_id = a.root)
          union all
          select a.root, ${columns} from asked a join citation_link l on l.cited_act_id = a.root where a.roll_up`;
}

/**
 * The documents citing each asked document, one item per citing document, a page at a time, for
 * every ask of a batch in two statements (a page and the counts), however many documents are
 * asked (the GraphQL list's DataLoader, citator.service.ts). The item shows one of its citations
 * of the document: the first, or under `sort=relevance` the one whose passage is most relevant to
 * `q` (the first among equals). The asks share the query (filters, sort, cursor, limit). The
 * page's rows are cut before their passages are read: a roll-up over thousands of links reads the
 * snippets of one page only.
 */
export async function citedByPages(em: EntityManager, asks: readonly CitedByAsk[], query: CitedByQuery): Promise<Map<string, CitedByResponse>> {
  const answers = new Map<string, CitedByResponse>(asks.map((a) => [a.root, { cited_by_count: 0, total: 0, items: [], next_cursor: null }]));
  if (asks.length === 0) return answers;
  const asked = `with asked(root, roll_up) as (values ${asks.map(() => '(cast(? as text), cast(? as boolean))').join(', ')})`;
  const askedParams = asks.flatMap((a) => [a.root, a.rollUp]);
  const filters = filterSql(query);
  const after = afterSql(query.sort, query.cursor ? decodeCursor(query.cursor, query.sort) : null);
  const relevance = relevanceSql(query);
  const scored = linksOfAsked(`l.citing_id, l.seq, ${relevance.sql} as relevance`);
  // one row per citing document, by hashing (no sort of every link): its occurrences and the link its item shows,
  // the first, or under `relevance` the most relevant passage (the first among equals)
  const shown = relevance.params.length ? '(array_agg(seq order by relevance desc, seq))[1]' : 'min(seq)';
  const ranked = `select root, citing_id, ${shown} as seq, max(relevance) as relevance, count(*) as occurrences
                    from (${scored}) scored
                   group by root, citing_id`;
  const rows = await selectRows<CitedByRow & { root: string }>(
    em,
    `${asked}
     select page.*, l.snippet, l.highlight_start, l.highlight_end, l.pinpoint, l.citation, l.start, l."end"
       from (
         select f.root, f.seq, d.id, d.source, d.source_id, d.namespace, d.country, d.language, d.court, d.court_tier, d.date, d.title,
                f.occurrences, f.relevance, row_number() over (partition by f.root order by ${ORDER[query.sort]}) as pos
           from (${ranked}) f
           join citing_document d on d.id = f.citing_id
          where true${filters.sql}${after.sql}
       ) page
       join citation_link l on l.citing_id = page.id and l.seq = page.seq
      where page.pos <= ?
      order by page.root, page.pos`,
    [...askedParams, ...relevance.params, ...relevance.params, ...filters.params, ...after.params, query.limit + 1],
  );
  const counts = await selectRows<{ root: string; everyone: string | number; passing: string | number }>(
    em,
    `${asked}
     select f.root, count(*) as everyone, count(*) filter (where true${filters.sql}) as passing
       from (select distinct root, citing_id from (${linksOfAsked('l.citing_id')}) links) f
       join citing_document d on d.id = f.citing_id
      group by f.root`,
    [...askedParams, ...filters.params],
  );
  const rowsOf = new Map<string, CitedByRow[]>();
  for (const row of rows) {
    const found = rowsOf.get(row.root);
    if (found) found.push(row);
    else rowsOf.set(row.root, [row]);
  }
  for (const count of counts) {
    const found = rowsOf.get(count.root) ?? [];
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    answers.set(count.root, {
      cited_by_count: Number(count.everyone),
      total: Number(count.passing),
      items: page.map(itemOf),
      next_cursor: found.length > query.limit && last ? encodeCursor(cursorOf(last, query.sort)) : null,
    });
  }
  return answers;
}

/** The documents citing `id` (with `rollUp`, an act with its articles): a batch of one ask. */
export async function citedByPage(em: EntityManager, id: string, rollUp: boolean, query: CitedByQuery): Promise<CitedByResponse> {
  return (await citedByPages(em, [{ root: id, rollUp }], query)).get(id)!;
}

function itemOf(r: CitedByRow): CitedByResponse['items'][number] {
  return {
    document: { id: r.id, source: r.source, source_id: r.source_id, namespace: r.namespace, country: r.country, language: r.language, court: r.court, court_tier: r.court_tier, date: r.date, title: r.title },
    snippet: r.snippet,
    highlight: { start: r.highlight_start, end: r.highlight_end },
    pinpoint: r.pinpoint,
    citation: r.citation,
    start: r.start,
    end: r.end,
    occurrences: Number(r.occurrences),
  };
}

function cursorOf(row: CitedByRow, sort: CitedByQuery['sort']): Cursor {
  const tier = row.court_tier ?? NO_TIER;
  const date = row.date ?? '';
  return sort === 'relevance' ? [tier, date, row.id, Number(row.relevance)] : [tier, date, row.id];
}

type LinkRow = { citing_id: string; cited_id: string; cited_source: string; cited_source_id: string; start: number; end: number; pinpoint: string; citation: string; carried: boolean };
type UnresolvedRow = CitesResponse['unresolved'][number] & { citing_id: string };

/** What each of `citingIds` cites: its links in order of appearance, then its unresolved citations; two statements for the whole list. */
export async function citesOfMany(em: EntityManager, citingIds: readonly string[]): Promise<Map<string, CitesResponse>> {
  const answers = new Map<string, CitesResponse>(citingIds.map((id) => [id, { links: [], unresolved: [] }]));
  if (citingIds.length === 0) return answers;
  const list = `(${citingIds.map(() => '?').join(', ')})`;
  const links = await selectRows<LinkRow>(
    em,
    `select citing_id, cited_id, cited_source, cited_source_id, start, "end", pinpoint, citation, carried from citation_link where citing_id in ${list} order by citing_id, seq`,
    citingIds,
  );
  const unresolved = await selectRows<UnresolvedRow>(em, `select citing_id, start, "end", citation, reason from unresolved_citation where citing_id in ${list} order by citing_id, seq`, citingIds);
  for (const l of links) {
    answers.get(l.citing_id)?.links.push({ cited: { id: l.cited_id, source: l.cited_source, source_id: l.cited_source_id }, start: l.start, end: l.end, pinpoint: l.pinpoint, citation: l.citation, carried: Boolean(l.carried) });
  }
  for (const { citing_id, ...u } of unresolved) answers.get(citing_id)?.unresolved.push(u);
  return answers;
}

/** What `citingId` cites: its links in order of appearance, then its unresolved citations. */
export async function citesOf(em: EntityManager, citingId: string): Promise<CitesResponse> {
  return (await citesOfMany(em, [citingId])).get(citingId)!;
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
