/**
 * The coverage report: per source, which resolve patterns reach its documents (identifier
 * kinds and citation grammars), how many, and how many documents; plus totals.
 */
import type { ResolveCoverage } from '../resolve.schema.js';
import type { ReferenceIndex, SourceReach } from './reference-index.js';

/** Pattern kinds that reach a source, derived from what its documents carry. */
function patternKinds(reach: SourceReach): string[] {
  const kinds: string[] = [];
  if (reach.ecli) kinds.push('ecli');
  if (reach.celex) kinds.push('celex');
  if (reach.eli) kinds.push('eli');
  if (reach.caseNumbers) kinds.push('case_number', 'court_citation');
  if (reach.actNames) kinds.push('act_name');
  if (reach.articles && reach.actNames) kinds.push('provision_citation');
  return kinds;
}

/** Builds the coverage report from the reference index. */
export function buildCoverage(index: ReferenceIndex): ResolveCoverage {
  const sources = [...index.reach.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, reach]) => {
      const kinds = patternKinds(reach);
      // Articles are reachable only through a named act; act documents through names or ids.
      const reachableParts = reach.actNames ? reach.articles + reach.acts : 0;
      const resolvable = Math.min(reach.documents, Math.max(reach.ecli, reach.celex, reach.caseNumbers, reach.eli) + reachableParts);
      return {
        source,
        country: source.split('/')[0],
        has_patterns: kinds.length > 0,
        patterns: kinds.length,
        pattern_kinds: kinds,
        documents: reach.documents,
        resolvable_documents: resolvable,
        act_names: reach.actNames,
      };
    });
  return {
    sources,
    totals: {
      sources: sources.length,
      sources_with_patterns: sources.filter((s) => s.has_patterns).length,
      documents: sources.reduce((n, s) => n + s.documents, 0),
      resolvable_documents: sources.reduce((n, s) => n + s.resolvable_documents, 0),
      patterns: new Set(sources.flatMap((s) => s.pattern_kinds)).size,
    },
  };
}
