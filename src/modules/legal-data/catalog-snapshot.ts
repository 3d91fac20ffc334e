/**
 * Discovery, statistics and the manifest, computed once from the index and the sources
 * catalogue (at startup and after each ingest step) and then served from memory.
 */
import type { CatalogSource } from './corpus/corpus-reader.js';
import { NAMESPACES, type DocumentMetadata, type Namespace } from '../../domain/legal-document.js';
import type { CountryInfo, CourtInfo, Manifest, SourceFilters, SourceInfo, Stats } from './catalog.schema.js';

type Counts = Record<Namespace, number>;

interface NamespaceFacets {
  count: number;
  courts: Map<string, { count: number; tiers: Map<number, number> }>;
  jurisdictions: Set<string>;
  chambers: Set<string>;
  decisionTypes: Set<string>;
  languages: Set<string>;
  subdivisions: Set<string>;
  courtTiers: Set<number>;
  minDate: string | null;
  maxDate: string | null;
}

export interface IndexFigures {
  chunks: number;
  chunksWithVectors: number;
  embeddingModel: string | null;
}

const zeroCounts = (): Counts => ({ case_law: 0, legislation: 0, doctrine: 0 });

function emptyFacets(): NamespaceFacets {
  return {
    count: 0,
    courts: new Map(),
    jurisdictions: new Set(),
    chambers: new Set(),
    decisionTypes: new Set(),
    languages: new Set(),
    subdivisions: new Set(),
    courtTiers: new Set(),
    minDate: null,
    maxDate: null,
  };
}

const sorted = (values: Iterable<string>) => [...values].sort((a, b) => a.localeCompare(b));

export class CatalogSnapshot {
  readonly generatedAt = new Date().toISOString();
  private readonly facets = new Map<string, Map<Namespace, NamespaceFacets>>();
  private readonly catalogue = new Map<string, CatalogSource>();
  private readonly languageCounts = new Map<string, number>();

  private constructor(private readonly index: IndexFigures) {}

  /** Aggregates every document's metadata; `sources` is the catalogue from the database. */
  static async build(
    metadata: AsyncIterable<DocumentMetadata[]>,
    sources: CatalogSource[],
    index: IndexFigures,
  ): Promise<CatalogSnapshot> {
    const snapshot = new CatalogSnapshot(index);
    for (const source of sources) snapshot.catalogue.set(source.source, source);
    for await (const rows of metadata) for (const row of rows) snapshot.add(row);
    return snapshot;
  }

  private add(row: DocumentMetadata): void {
    if (!this.facets.has(row.source)) this.facets.set(row.source, new Map());
    const byNamespace = this.facets.get(row.source)!;
    if (!byNamespace.has(row.namespace)) byNamespace.set(row.namespace, emptyFacets());
    const f = byNamespace.get(row.namespace)!;
    f.count += 1;
    if (row.court) {
      const court = f.courts.get(row.court) ?? { count: 0, tiers: new Map() };
      court.count += 1;
      if (row.court_tier !== null) court.tiers.set(row.court_tier, (court.tiers.get(row.court_tier) ?? 0) + 1);
      f.courts.set(row.court, court);
    }
    if (row.jurisdiction) f.jurisdictions.add(row.jurisdiction);
    if (row.chamber) f.chambers.add(row.chamber);
    if (row.decision_type) f.decisionTypes.add(row.decision_type);
    if (row.language) {
      f.languages.add(row.language);
      this.languageCounts.set(row.language, (this.languageCounts.get(row.language) ?? 0) + 1);
    }
    if (row.subdivision) f.subdivisions.add(row.subdivision);
    if (row.court_tier !== null) f.courtTiers.add(row.court_tier);
    if (row.date) {
      if (f.minDate === null || row.date < f.minDate) f.minDate = row.date;
      if (f.maxDate === null || row.date > f.maxDate) f.maxDate = row.date;
    }
  }

  private countsOf(source: string): Counts {
    const counts = zeroCounts();
    for (const [ns, f] of this.facets.get(source) ?? []) counts[ns] = f.count;
    return counts;
  }

  private countryOf(source: string): string {
    return this.catalogue.get(source)?.country ?? source.split('/')[0];
  }

  /** Every source code known, catalogued or with documents. */
  private allSources(): string[] {
    return sorted(new Set([...this.catalogue.keys(), ...this.facets.keys()]));
  }

  /** The canonical spelling of a country code (`coe` -> `CoE`), or null when unknown. */
  resolveCountry(code: string): string | null {
    const wanted = code.toLowerCase();
    for (const source of this.allSources()) {
      const country = this.countryOf(source);
      if (country.toLowerCase() === wanted) return country;
    }
    return null;
  }

  /** The canonical spelling of a source code, or null when unknown. */
  resolveSource(source: string): string | null {
    const wanted = source.toLowerCase();
    return this.allSources().find((s) => s.toLowerCase() === wanted) ?? null;
  }

  countries(): CountryInfo[] {
    const byCountry = new Map<string, CountryInfo>();
    for (const [source, namespaces] of this.facets) {
      const code = this.countryOf(source);
      const info = byCountry.get(code) ?? { code, case_law_sources: 0, legislation_sources: 0, doctrine_sources: 0, total_documents: 0 };
      for (const [ns, f] of namespaces) {
        if (f.count === 0) continue;
        info[`${ns}_sources`] += 1;
        info.total_documents += f.count;
      }
      byCountry.set(code, info);
    }
    return [...byCountry.values()].sort((a, b) => a.code.localeCompare(b.code));
  }

  /** Earliest and latest document date of a source over its namespaces; null when none is dated. */
  private dateRangeOf(source: string): { min: string | null; max: string | null } | null {
    let min: string | null = null;
    let max: string | null = null;
    for (const f of this.facets.get(source)?.values() ?? []) {
      if (f.minDate && (min === null || f.minDate < min)) min = f.minDate;
      if (f.maxDate && (max === null || f.maxDate > max)) max = f.maxDate;
    }
    return min === null && max === null ? null : { min, max };
  }

  /** The catalogue's licence and page of a source (null when the catalogue does not list it). */
  sourceNotice(source: string): { license: { id: string | null; name: string | null; url: string | null; commercial_use: boolean | null }; url: string | null } | null {
    const c = this.catalogue.get(source);
    if (!c) return null;
    return {
      license: { id: c.license_id ?? null, name: c.license_name ?? null, url: c.license_url ?? null, commercial_use: c.commercial_use ?? null },
      url: c.url ?? null,
    };
  }

  sourceInfo(source: string): SourceInfo {
    const c = this.catalogue.get(source);
    const counts = this.countsOf(source);
    const total = counts.case_law + counts.legislation + counts.doctrine;
    return {
      source_id: source,
      document_count: total,
      date_range: this.dateRangeOf(source),
      source,
      country: this.countryOf(source),
      name: c?.name ?? source.split('/')[1],
      data_types: c?.data_types ?? NAMESPACES.filter((ns) => counts[ns] > 0),
      url: c?.url ?? null,
      license_id: c?.license_id ?? null,
      license_name: c?.license_name ?? null,
      license_url: c?.license_url ?? null,
      commercial_use: c?.commercial_use ?? null,
      status: c?.status ?? null,
      blocked_reason: c?.blocked_reason ?? null,
      court_name: c?.court_name ?? null,
      tier: c?.tier ?? null,
      notes: c?.notes ?? null,
      total_documents: total,
      documents_by_namespace: counts,
    };
  }

  /** Sources of a country (canonical code), empty ones only when asked. */
  sourcesOf(country: string, includeEmpty: boolean): SourceInfo[] {
    return this.allSources()
      .filter((s) => this.countryOf(s) === country)
      .map((s) => this.sourceInfo(s))
      .filter((info) => includeEmpty || info.total_documents > 0);
  }

  /** Filter values of one source (canonical code) in one namespace (default: its largest). */
  filters(source: string, namespace?: Namespace): SourceFilters {
    const counts = this.countsOf(source);
    const declared = (this.catalogue.get(source)?.data_types ?? []).filter((t): t is Namespace => (NAMESPACES as readonly string[]).includes(t));
    const largest = NAMESPACES.reduce((best, ns) => (counts[ns] > counts[best] ? ns : best), declared[0] ?? NAMESPACES[0]);
    const ns = namespace ?? largest;
    const f = this.facets.get(source)?.get(ns) ?? emptyFacets();
    return {
      source,
      namespace: ns,
      total_documents: f.count,
      courts: sorted(f.courts.keys()),
      jurisdictions: sorted(f.jurisdictions),
      chambers: sorted(f.chambers),
      decision_types: sorted(f.decisionTypes),
      languages: sorted(f.languages),
      subdivisions: sorted(f.subdivisions),
      court_tiers: [...f.courtTiers].sort((a, b) => a - b),
      date_range: { min: f.minDate, max: f.maxDate },
    };
  }

  courts(options: { country?: string; source?: string }): CourtInfo[] {
    const out: CourtInfo[] = [];
    for (const [source, namespaces] of this.facets) {
      if (options.source && source !== options.source) continue;
      const country = this.countryOf(source);
      if (options.country && country !== options.country) continue;
      for (const f of namespaces.values()) {
        for (const [court, c] of f.courts) {
          const tier = [...c.tiers.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
          out.push({ court, country, source, court_tier: tier, total_documents: c.count });
        }
      }
    }
    return out.sort((a, b) => b.total_documents - a.total_documents || a.court.localeCompare(b.court));
  }

  stats(): Stats {
    const byNamespace = zeroCounts();
    const byCountry: Record<string, number> = {};
    let min: string | null = null;
    let max: string | null = null;
    let sourcesWithDocuments = 0;
    for (const [source, namespaces] of this.facets) {
      let any = false;
      for (const [ns, f] of namespaces) {
        byNamespace[ns] += f.count;
        const country = this.countryOf(source);
        byCountry[country] = (byCountry[country] ?? 0) + f.count;
        any ||= f.count > 0;
        if (f.minDate && (min === null || f.minDate < min)) min = f.minDate;
        if (f.maxDate && (max === null || f.maxDate > max)) max = f.maxDate;
      }
      if (any) sourcesWithDocuments += 1;
    }
    return {
      total_documents: byNamespace.case_law + byNamespace.legislation + byNamespace.doctrine,
      documents_by_namespace: byNamespace,
      countries: Object.keys(byCountry).length,
      sources: sourcesWithDocuments,
      catalogued_sources: this.catalogue.size,
      documents_by_country: Object.fromEntries(Object.entries(byCountry).sort((a, b) => b[1] - a[1])),
      documents_by_language: Object.fromEntries([...this.languageCounts].sort((a, b) => b[1] - a[1])),
      date_range: { min, max },
      index: {
        chunks: this.index.chunks,
        chunks_with_vectors: this.index.chunksWithVectors,
        embedding_model: this.index.embeddingModel,
        ready: false, // the service fills in whether the whole corpus is indexed
      },
      generated_at: this.generatedAt,
    };
  }

  manifest(info: { name: string; version: string; engine: string; endpoints: string[] }): Manifest {
    const stats = this.stats();
    const sourcesPerNamespace = zeroCounts();
    for (const namespaces of this.facets.values()) for (const [ns, f] of namespaces) if (f.count > 0) sourcesPerNamespace[ns] += 1;
    return {
      name: info.name,
      version: info.version,
      api_version: '0.1.0',
      description: 'Hybrid semantic and keyword search over case law, legislation and doctrine, with full documents and discovery.',
      collections: NAMESPACES.map((ns) => ({ namespace: ns, total_documents: stats.documents_by_namespace[ns], sources: sourcesPerNamespace[ns] })),
      jurisdictions: Object.keys(stats.documents_by_country).sort(),
      sources: [...this.facets.keys()].sort().map((source) => {
        const s = this.sourceInfo(source);
        return {
          source,
          country: s.country,
          name: s.name,
          total_documents: s.total_documents,
          license_id: s.license_id,
          license_name: s.license_name,
          license_url: s.license_url,
          commercial_use: s.commercial_use,
        };
      }),
      search: { engine: info.engine, embedding_model: this.index.embeddingModel, hybrid: this.index.embeddingModel !== null },
      endpoints: info.endpoints,
      generated_at: this.generatedAt,
    };
  }
}
