/**
 * The search form's state and its two encodings: the address (?q=…&country=…, so back, reload
 * and shared links show the same search) and the GraphQL SearchInput.
 */
import { type Namespace, type ResultDetail, type SearchDiscoveryQuery, type SearchInput } from '../../gql/graphql';

/** The search page's lead, painted before the session check answers (its route declares it). */
export const SEARCH_LEAD = 'Hybrid keyword and semantic search over legislation, case law and doctrine. Each search counts as one request of your plan.';

export const NAMESPACES: Record<string, string> = { case_law: 'Case law', legislation: 'Legislation', doctrine: 'Doctrine' };

export const DETAILS: Record<string, string> = {
  snippet: 'Snippet around the match',
  summary_only: 'Summary only',
  full_text: 'Full text',
  full_metadata: 'Full text and every field',
};

export const TIERS: Record<string, string> = { '1': 'Supreme / apex courts', '2': 'Appellate courts', '3': 'First instance' };

export interface FormState {
  q: string;
  namespace: Namespace;
  countries: string[];
  sources: string[];
  dateStart: string;
  dateEnd: string;
  court: string;
  language: string;
  courtTier: string;
  alpha: number;
  detail: ResultDetail;
  /** Hits per page (the address's `top_k`, as before paging existed). */
  topK: number;
  /** 1-based page of results. */
  page: number;
}

/** The API returns at most this many hits for one search (SearchRequest.top_k ≤ 100): paging ends there. */
export const MAX_HITS = 100;

/** A value of the address when it is one of `choices`' keys (the values of the GraphQL enum K), else the default. */
function oneOf<K extends string>(choices: Record<string, string>, value: string | null, fallback: K): K {
  return value !== null && Object.hasOwn(choices, value) ? (value as K) : fallback;
}

export function formFromParams(p: URLSearchParams): FormState {
  const alpha = Number(p.get('alpha') ?? '0.7');
  const topK = Math.min(MAX_HITS, Math.max(1, Number(p.get('top_k') ?? '10') || 10));
  return {
    q: p.get('q') ?? '',
    namespace: oneOf(NAMESPACES, p.get('namespace'), 'case_law'),
    countries: p.getAll('country'),
    sources: p.getAll('source'),
    dateStart: p.get('date_start') ?? '',
    dateEnd: p.get('date_end') ?? '',
    court: p.get('court') ?? '',
    language: p.get('language') ?? '',
    courtTier: p.get('court_tier') ?? '',
    alpha: Number.isFinite(alpha) ? Math.min(1, Math.max(0, alpha)) : 0.7,
    detail: oneOf(DETAILS, p.get('result_detail'), 'snippet'),
    topK,
    page: Math.min(Math.ceil(MAX_HITS / topK), Math.max(1, Math.floor(Number(p.get('page') ?? '1')) || 1)),
  };
}

export function paramsFromForm(f: FormState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('q', f.q.trim());
  p.set('namespace', f.namespace);
  f.countries.forEach((c) => p.append('country', c));
  f.sources.forEach((s) => p.append('source', s));
  if (f.dateStart) p.set('date_start', f.dateStart);
  if (f.dateEnd) p.set('date_end', f.dateEnd);
  if (f.court) p.set('court', f.court);
  if (f.language) p.set('language', f.language);
  if (f.courtTier) p.set('court_tier', f.courtTier);
  p.set('alpha', String(f.alpha));
  if (f.detail !== 'snippet') p.set('result_detail', f.detail);
  if (f.topK !== 10) p.set('top_k', String(f.topK));
  if (f.page > 1) p.set('page', String(f.page));
  return p;
}

/**
 * The search API has no offset: page n asks for the first n × per-page hits (at most 100) and
 * shows the last page of them. Ranking is deterministic, so page 2 continues page 1.
 */
export function hitsToAsk(f: FormState): number {
  return Math.min(MAX_HITS, f.page * f.topK);
}

/** Why the date range cannot be searched (shown at the "To date" field; nothing is sent), or null. */
export function dateRangeError(f: Pick<FormState, 'dateStart' | 'dateEnd'>): string | null {
  if (f.dateStart && f.dateEnd && f.dateStart > f.dateEnd) return 'The end date is before the start date: choose an end date on or after the start date.';
  return null;
}

/** Whether the page sends this search: a query, and a date range that is not inverted. */
export function searchRuns(f: FormState): boolean {
  return f.q.trim().length > 0 && dateRangeError(f) === null;
}

export function inputFromForm(f: FormState): SearchInput {
  return {
    q: f.q.trim(),
    namespace: f.namespace,
    alpha: f.alpha,
    topK: hitsToAsk(f),
    resultDetail: f.detail,
    country: f.countries.length ? f.countries : null,
    source: f.sources.length ? f.sources : null,
    dateStart: f.dateStart || null,
    dateEnd: f.dateEnd || null,
    court: f.court || null,
    language: f.language || null,
    courtTier: f.courtTier ? Number(f.courtTier) : null,
    // every hit says why it ranks where it does (score parts) and under what licence
    explain: true,
  };
}

export type Discovery = SearchDiscoveryQuery;
