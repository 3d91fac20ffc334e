/**
 * The analytics facts of a billable call's answer (UsageFacts, issue #35): which filters a search
 * used and which sources its hits came from, which document was read, how a reference resolved.
 * Never the query text nor a document's text: only ids, codes and counts.
 */
import type { LegalDocument } from '../../domain/legal-document.js';
import type { UsageFacts } from '../usage/usage-guard.js';
import type { ResolveResponse } from './resolve.schema.js';
import type { SearchResponse } from './search.schema.js';

/** A search: its namespace and country filters (the request was valid, or there is no answer) and hits per source. */
export function searchFacts(input: unknown, answer: SearchResponse): UsageFacts {
  const requested = (input as { country?: unknown } | null)?.country;
  const countries = Array.isArray(requested) ? [...new Set(requested.filter((c): c is string => typeof c === 'string'))] : [];
  const hitsBySource: Record<string, number> = {};
  const hitsByCountry: Record<string, number> = {};
  const pairs = new Map<string, { source: string; country: string; hits: number }>();
  for (const hit of answer.hits) {
    hitsBySource[hit.source] = (hitsBySource[hit.source] ?? 0) + 1;
    // a source is named <country>/<name>: its country when the hit does not carry one (snippet detail)
    const country = hit.country ?? hit.source.split('/')[0]!;
    hitsByCountry[country] = (hitsByCountry[country] ?? 0) + 1;
    const key = `${hit.source}\u0000${country}`;
    const pair = pairs.get(key);
    if (pair) pair.hits++;
    else pairs.set(key, { source: hit.source, country, hits: 1 });
  }
  return { search: { namespace: answer.namespace, countries, hitsBySource, hitsByCountry, hitsBySourceCountry: [...pairs.values()] } };
}

/** Documents read: source, id, namespace and country of each. */
export function documentFacts(documents: readonly LegalDocument[]): UsageFacts {
  return { documents: documents.map((d) => ({ source: d.source, sourceId: d.source_id, namespace: d.namespace, country: d.country })) };
}

/** A resolution: its match type and, when resolved, the first document's source and country. */
export function resolveFacts(answer: ResolveResponse): UsageFacts {
  const first = answer.resolved ? answer.documents[0] : undefined;
  return { resolution: { matchType: answer.match_type, source: first?.source ?? null, country: first?.country ?? null } };
}
