/**
 * The reference resolver service: validates a ResolveRequest, answers from the cache or runs
 * the stages (a) identifiers, (b) citation grammars, (c) title search, (d) search fallback
 * under a wall-time budget, and reports coverage. The reference index and the cache are
 * rebuilt/cleared by `refresh()`, which the legal-data service calls whenever the index changes.
 */
import type { DocumentPlace, SearchEngine } from '../../../engines/search-engine.js';
import { parseInput } from '../../../validation.js';
import type { DocumentMetadata, Namespace } from '../../../domain/legal-document.js';
import {
  resolveRequestSchema,
  type MatchType,
  type ParsedReference,
  type ResolveCoverage,
  type ResolvedDocument,
  type ResolveResponse,
} from '../resolve.schema.js';
import { findCitations, warmUpCitationScan } from './citations-in-text.js';
import { buildCoverage } from './coverage.js';
import { cleanReference, foldText, titleKey } from './normalise.js';
import { ReferenceIndex } from './reference-index.js';
import { LRUCache } from 'lru-cache';
import { emptyParsed, resolveCaseCitation, resolveIdentifier, resolveLegislation, type Candidate, type Outcome, type ResolveHints } from './resolver.js';

export interface ResolverDeps {
  engine: SearchEngine;
  /** Wall-time budget of one resolution (RESOLVE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Most cached resolutions kept (least recently used dropped first); 0 keeps none. */
  cacheSize?: number;
}

class Timeout extends Error {}

/** What one resolution may use: the engine as its request sees it (given the resolution's own signal), and the request's signal. */
export interface ResolveOptions {
  /** Aborted when the request is abandoned; the resolution's budget aborts its own signal too. */
  signal?: AbortSignal;
  /** The engine bound to `signal` (slots, drops); absent: the resolver's engine as it is. */
  engineFor?: (signal: AbortSignal) => SearchEngine;
}

/** Citations of one search query taken at most (a query is not a brief). */
const MAX_CITATIONS_PER_TEXT = 5;

/** Content words of a text (folded, 2+ letters or any number), for title comparisons. */
function words(text: string): string[] {
  return titleKey(text)
    .split(' ')
    .filter((w) => w.length > 1 || /\d/.test(w));
}

/** Title-search acceptance: every word of the reference is in the title and covers most of it. */
function titleFits(reference: string, title: string, minTitleCoverage: number): boolean {
  const ref = words(reference);
  const t = new Set(words(title));
  if (ref.length < 3 || t.size === 0) return false;
  const inTitle = ref.filter((w) => t.has(w)).length;
  return inTitle === ref.length && ref.length / t.size >= minTitleCoverage;
}

export class ReferenceResolver {
  private index: ReferenceIndex | null = null;
  private building: Promise<ReferenceIndex> | null = null;
  /** Null when the size is 0: lru-cache requires a positive bound. */
  private readonly cache: LRUCache<string, Omit<ResolveResponse, 'elapsed_ms'>> | null;

  constructor(private readonly deps: ResolverDeps) {
    const size = deps.cacheSize ?? 10_000;
    this.cache = size > 0 ? new LRUCache({ max: size }) : null;
  }

  /** Rebuilds the reference index from the engine and drops every cached resolution. */
  async refresh(metadata: AsyncIterable<DocumentMetadata[]> = this.deps.engine.scanMetadata()): Promise<void> {
    const build = ReferenceIndex.build(metadata);
    this.building = build;
    try {
      const index = await build;
      // The scan of search queries has a time budget, which a cold first scan could exhaust.
      warmUpCitationScan(index);
      if (this.building === build) this.index = index;
    } finally {
      // A failed build must not stay in place: the next call builds again.
      if (this.building === build) this.building = null;
    }
    this.cache?.clear();
  }

  private async currentIndex(): Promise<ReferenceIndex> {
    if (this.index) return this.index;
    // A failed build is retried by the next call; its error must not go unhandled meanwhile.
    if (!this.building) this.refresh().catch(() => (this.building = null));
    return this.building!;
  }

  /** Validates `input` (ResolveRequest) and resolves it; never throws for an unresolvable reference. */
  async resolve(input: unknown, options: ResolveOptions = {}): Promise<ResolveResponse> {
    const started = performance.now();
    const request = parseInput(resolveRequestSchema, input);
    const hints: ResolveHints = { country: request.hint_country ?? null, type: request.hint_type ?? null };
    const reference = cleanReference(request.reference);
    const key = `${foldText(reference)}|${(hints.country ?? '').toLowerCase()}|${hints.type ?? ''}`;
    // whole milliseconds: the spec types elapsed_ms as an integer
    const elapsed = () => Math.round(performance.now() - started);
    const cached = this.cache?.get(key);
    if (cached) {
      return { ...structuredClone(cached), reference: request.reference, elapsed_ms: elapsed() };
    }

    const deadline = started + this.deps.timeoutMs;
    const parsed = emptyParsed();
    // The budget's end stops the engine work the stages queued, not only the wait for it.
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new Timeout()), Math.max(0, deadline - performance.now()));
    const signal = options.signal ? AbortSignal.any([options.signal, budget.signal]) : budget.signal;
    const engine = options.engineFor?.(signal) ?? this.deps.engine;
    let outcome: Outcome;
    try {
      outcome = await this.runStages(engine, reference, hints, parsed, deadline);
    } catch (error) {
      // an abandoned request's resolution ends with it (nobody reads a match type)
      options.signal?.throwIfAborted();
      const matchType: MatchType = error instanceof Timeout || budget.signal.aborted ? 'timeout' : 'error';
      return { reference: request.reference, resolved: false, match_type: matchType, documents: [], parsed, elapsed_ms: elapsed() };
    } finally {
      clearTimeout(timer);
      budget.abort(new Timeout()); // what the stages left queued is dropped
    }
    const answer = {
      reference: request.reference,
      resolved: outcome.matchType !== 'ambiguous' && outcome.matchType !== 'none' && outcome.candidates.length > 0,
      match_type: outcome.matchType,
      documents: outcome.candidates.map(toDocument),
      parsed,
    };
    this.remember(key, answer);
    return { ...answer, elapsed_ms: elapsed() };
  }

  /**
   * Ids of the provisions a free text cites precisely ("… under Article 17 GDPR …"), resolved as
   * strictly as `resolve`. Never waits: none while the reference index is first built.
   */
  citedDocuments(text: string, hints: ResolveHints): string[] {
    if (!this.index) {
      this.currentIndex().catch(() => undefined);
      return [];
    }
    return findCitations(this.index, text, { hints, max: MAX_CITATIONS_PER_TEXT }).map((c) => c.doc.id);
  }

  /** The metadata of these documents from the reference index; null until it is built. */
  documentMetadata(ids: Iterable<string>): { found: Map<string, DocumentMetadata>; unknown: string[] } | null {
    return this.index?.metadataOf(ids) ?? null;
  }

  /** The places of these documents from the reference index; null until it is built. */
  documentPlaces(ids: Iterable<string>): { places: Map<string, DocumentPlace>; unknown: string[] } | null {
    return this.index?.placesOf(ids) ?? null;
  }

  /** Per source: which resolve patterns reach its documents, and totals. */
  async coverage(): Promise<ResolveCoverage> {
    return buildCoverage(await this.currentIndex());
  }

  private remember(key: string, answer: Omit<ResolveResponse, 'elapsed_ms'>): void {
    this.cache?.set(key, structuredClone(answer));
  }

  private async runStages(engine: SearchEngine, reference: string, hints: ResolveHints, parsed: ParsedReference, deadline: number): Promise<Outcome> {
    const check = () => {
      if (performance.now() > deadline) throw new Timeout();
    };
    // The index is in memory once built; only its first build is waited for (within the budget).
    const index = this.index ?? (await withDeadline(this.currentIndex(), deadline));
    // (a) identifiers, (b) grammars: synchronous, in memory, sub-millisecond.
    const fast =
      resolveIdentifier(index, reference, hints, parsed) ??
      resolveCaseCitation(index, reference, hints, parsed) ??
      resolveLegislation(index, reference, hints, parsed);
    check();
    if (fast) return fast;
    if (words(reference).length < 3) return { matchType: 'none', candidates: [] };
    // (c) title search: a long reference that is a document's title, word for word.
    const title = await withDeadline(this.searchTitles(engine, index, reference, hints, 0.75), deadline);
    if (title) return { matchType: 'title_search', candidates: [title] };
    check();
    // (d) search fallback, accepted only above its calibrated threshold.
    const fallback = await withDeadline(this.searchTitles(engine, index, reference, hints, 0.5, true), deadline);
    if (fallback) return { matchType: 'fallback_search', candidates: [fallback] };
    return { matchType: 'none', candidates: [] };
  }

  /**
   * Keyword search over titles and text; the best hit is accepted only when its title contains
   * every word of the reference (and the reference covers `minCoverage` of the title) and no
   * other hit fits as well. The fallback pass searches text too and takes a lower coverage.
   */
  private async searchTitles(engine: SearchEngine, index: ReferenceIndex, reference: string, hints: ResolveHints, minCoverage: number, wide = false): Promise<Candidate | null> {
    const namespaces: Namespace[] = hints.type ? [hints.type] : ['legislation', 'case_law'];
    const countries = hints.country ? [hints.country] : undefined;
    const hits = (
      await Promise.all(namespaces.map((namespace) => engine.keywordSearch(reference, { namespace, countries }, wide ? 20 : 10)))
    ).flat();
    const fitting = hits
      .map((hit) => index.docs.get(hit.docId))
      .filter((doc): doc is NonNullable<typeof doc> => Boolean(doc))
      .filter((doc) => titleFits(reference, doc.title, minCoverage) || (!wide && titleKey(doc.title) === titleKey(reference)));
    const distinct = [...new Map(fitting.map((d) => [d.id, d])).values()];
    if (distinct.length !== 1) return null;
    return { doc: distinct[0], confidence: wide ? 0.7 : 0.85 };
  }
}

function toDocument(candidate: Candidate): ResolvedDocument {
  const d = candidate.doc;
  return {
    id: d.id,
    source: d.source,
    source_id: d.source_id,
    title: d.title,
    url: d.url,
    country: d.country,
    namespace: d.namespace,
    canonical_path: d.canonical_path,
    confidence: candidate.confidence,
  };
}

/** Races a promise against the deadline (the engine work behind it is dropped by the resolution's signal, see resolve). */
function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  // Past the deadline the work rejects as its reads are dropped: nobody awaits it any more.
  promise.catch(() => undefined);
  const remaining = deadline - performance.now();
  if (remaining <= 0) return Promise.reject(new Timeout());
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout()), remaining);
    }),
  ]).finally(() => clearTimeout(timer));
}
