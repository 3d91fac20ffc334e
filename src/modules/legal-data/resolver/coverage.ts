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

/**
 * Citation families (issue 18) the resolver supports for a source, from what its documents
 * carry: identifiers, decisions by court/date/number, German sub-units and act names, nested
 * articles, French code forms, EU acts by name or number, common-law short titles.
 */
export function citationFamilies(source: string, reach: SourceReach): string[] {
  const country = source.split('/')[0];
  const families: string[] = [];
  const provisions = reach.articles > 0 && reach.actNames > 0;
  if (reach.ecli || reach.celex || reach.eli || (country === 'CH' && reach.identifiers)) families.push('identifiers');
  if (reach.caseNumbers || (reach.ecli && reach.celex)) families.push('court_decisions');
  if (country === 'DE' && provisions) families.push('de_subunits', 'de_act_names');
  if (reach.nested) families.push('nested_articles');
  if ((country === 'FR' || country === 'LU') && provisions) families.push('fr_forms');
  if (country === 'EU' && reach.acts && reach.celex) families.push('eu_acts');
  if (reach.shortTitles) families.push('short_titles');
  return families;
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
        citation_families: citationFamilies(source, reach),
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
