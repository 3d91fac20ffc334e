/**
 * What one counted billable call adds to the daily analytics (issue #35): its cells, one per
 * dimension it touched (analytics.entities.ts lists them), under the caller's account and UTC day.
 * Pure: the recorder calls it on the request path, so it only builds a few small objects.
 */
import { isAccount } from '../../context.js';
import type { CountedCall } from '../usage/usage-guard.js';

export type CellKind = 'source' | 'country' | 'grid' | 'namespace' | 'tool';

/**
 * The one grid every released hit, document and resolution figure is summed from (issue #35
 * item 4, analytics-privacy.ts): a `grid` cell is (source, country, detail, day), stored as
 * scope = source ('' for a reference resolved to none) and item = `<country>|<detail>`, detail
 * being '' for hits, `doc:<source id>` for a document fetched, `match:<type>` for a resolution.
 * A country code never holds a '|'.
 */
export const GRID_HITS = '';
export const GRID_DOCUMENT = 'doc:';
export const GRID_MATCH = 'match:';

export function gridItem(country: string, detail: string): string {
  return `${country}|${detail}`;
}

/** The country and detail of a grid cell's item. */
export function gridParts(item: string): { country: string; detail: string } {
  const bar = item.indexOf('|');
  return { country: item.slice(0, bar), detail: item.slice(bar + 1) };
}

/** The measures of one account in one dimension on one day. */
export interface Measures {
  searches: number;
  hits: number;
  documents: number;
  resolutions: number;
  calls: number;
}

export interface AnalyticsCell extends Measures {
  kind: CellKind;
  scope: string;
  item: string;
}

export interface DocumentMeta {
  source: string;
  source_id: string;
  namespace: string;
  country: string;
}

/** One call's contribution, as queued and spilled (plain JSON). */
export interface AnalyticsEvent {
  /** Given here: a batch's key is the hash of its events' ids (idempotent writes). */
  event_id: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  account: string;
  cells: AnalyticsCell[];
  documents: DocumentMeta[];
}

/** Every anonymous caller counts as this one account: anonymous use alone never reaches 5 distinct accounts. */
export const ANONYMOUS_ACCOUNT = 'anonymous';

/** The MCP tool behind a billable endpoint (the others are named after their tool already). */
const TOOL_OF_ENDPOINT: Record<string, string> = { search: 'search', documents: 'get_document', resolve: 'resolve_reference' };

export const NO_MEASURES: Measures = { searches: 0, hits: 0, documents: 0, resolutions: 0, calls: 0 };

/** The cells of one counted call (merged per dimension), or null when it touched none. */
export function analyticsEventOf(call: CountedCall, eventId: string): AnalyticsEvent | null {
  const cells = new Map<string, AnalyticsCell>();
  const add = (kind: CellKind, scope: string, item: string, measures: Partial<Measures>) => {
    const key = `${kind}\u0000${scope}\u0000${item}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { kind, scope, item, ...NO_MEASURES }));
    for (const [name, value] of Object.entries(measures) as [keyof Measures, number][]) cell[name] += value;
  };
  const documents: DocumentMeta[] = [];
  const facts = call.facts;
  if (facts?.search) {
    const { namespace, countries, hitsBySource, hitsByCountry, hitsBySourceCountry } = facts.search;
    for (const [source, hits] of Object.entries(hitsBySource)) add('source', source, '', { searches: 1, hits });
    for (const [country, hits] of Object.entries(hitsByCountry)) add('country', country, '', { hits });
    for (const hit of hitsBySourceCountry ?? hitPairsOf(hitsBySource)) add('grid', hit.source, gridItem(hit.country, GRID_HITS), { hits: hit.hits });
    for (const country of countries) add('country', country, '', { searches: 1 });
    if (namespace) add('namespace', namespace, '', { searches: 1 });
  }
  for (const doc of facts?.documents ?? []) {
    add('source', doc.source, '', { documents: 1 });
    add('country', doc.country, '', { documents: 1 });
    add('grid', doc.source, gridItem(doc.country, GRID_DOCUMENT + doc.sourceId), { documents: 1 });
    documents.push({ source: doc.source, source_id: doc.sourceId, namespace: doc.namespace, country: doc.country });
  }
  if (facts?.resolution) {
    const { matchType, source, country } = facts.resolution;
    add('grid', source ?? '', gridItem(country ?? '', GRID_MATCH + matchType), { resolutions: 1 });
    if (source) add('source', source, '', { resolutions: 1 });
    if (country) add('country', country, '', { resolutions: 1 });
  }
  if (call.door === 'mcp') add('tool', '', TOOL_OF_ENDPOINT[call.endpoint] ?? call.endpoint, { calls: 1 });
  if (cells.size === 0) return null;
  return {
    event_id: eventId,
    day: new Date(call.at).toISOString().slice(0, 10),
    account: isAccount(call.caller) ? call.caller.userId : ANONYMOUS_ACCOUNT,
    cells: [...cells.values()],
    documents,
  };
}

/** Hits per source and country when the facts name only the sources: a source is `<country>/<name>`. */
function hitPairsOf(hitsBySource: Record<string, number>): { source: string; country: string; hits: number }[] {
  return Object.entries(hitsBySource).map(([source, hits]) => ({ source, country: source.split('/')[0]!, hits }));
}
