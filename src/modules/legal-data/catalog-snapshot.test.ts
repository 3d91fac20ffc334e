import { CatalogSnapshot } from './catalog-snapshot.js';
import type { CatalogSource } from './corpus/corpus-reader.js';
import type { DocumentMetadata } from '../../domain/legal-document.js';

function meta(partial: Partial<DocumentMetadata> & Pick<DocumentMetadata, 'source' | 'source_id' | 'namespace'>): DocumentMetadata {
  const base = Object.fromEntries(
    ['language', 'date', 'url', 'court', 'court_tier', 'jurisdiction', 'chamber', 'ecli', 'case_number', 'decision_type', 'decision_number', 'authority', 'document_type', 'status', 'identifier', 'eli_uri', 'effective_date', 'expiry_date', 'granularity', 'unit_type', 'unit_number', 'canonical_path', 'parent_source_id', 'subdivision'].map((k) => [k, null]),
  );
  return { ...base, id: `${partial.source}/${partial.source_id}`, country: partial.source.split('/')[0], title: 't', short_names: [], ...partial } as DocumentMetadata;
}

const source = (s: string, extra: Partial<CatalogSource> = {}): CatalogSource => ({
  source: s, country: s.split('/')[0], name: s.split('/')[1], data_types: ['case_law'], url: null, license_id: null, license_name: null,
  license_url: null, commercial_use: true, status: 'complete', blocked_reason: null, court_name: null, tier: null, notes: null, ...extra,
});

async function* batches(rows: DocumentMetadata[]) {
  yield rows.slice(0, 2);
  yield rows.slice(2);
}

describe('CatalogSnapshot', () => {
  let snapshot: CatalogSnapshot;
  beforeAll(async () => {
    const rows = [
      meta({ source: 'DE/BGH', source_id: 'a', namespace: 'case_law', court: 'BGH', court_tier: 1, date: '2019-05-01', language: 'de', chamber: 'VI' }),
      meta({ source: 'DE/BGH', source_id: 'b', namespace: 'case_law', court: 'BGH', court_tier: 1, date: '2021-01-02', language: 'de', decision_type: 'Urteil' }),
      meta({ source: 'DE/GesetzeImInternet', source_id: 'bgb/823', namespace: 'legislation', language: 'de' }),
      meta({ source: 'CoE/HUDOC', source_id: '001-1', namespace: 'case_law', court: 'ECtHR', jurisdiction: 'CoE' }),
    ];
    snapshot = await CatalogSnapshot.build(batches(rows), [source('DE/BGH', { tier: 1 }), source('DE/Empty'), source('CoE/HUDOC')], {
      chunks: 10, chunksWithVectors: 0, embeddingModel: null,
    });
  });

  it('counts sources per namespace and documents per country', () => {
    expect(snapshot.countries()).toEqual([
      { code: 'CoE', case_law_sources: 1, legislation_sources: 0, doctrine_sources: 0, total_documents: 1 },
      { code: 'DE', case_law_sources: 1, legislation_sources: 1, doctrine_sources: 0, total_documents: 3 },
    ]);
  });

  it('hides empty sources unless asked, and lists uncatalogued sources that have documents', () => {
    expect(snapshot.sourcesOf('DE', false).map((s) => s.source)).toEqual(['DE/BGH', 'DE/GesetzeImInternet']);
    expect(snapshot.sourcesOf('DE', true).map((s) => s.source)).toEqual(['DE/BGH', 'DE/Empty', 'DE/GesetzeImInternet']);
    expect(snapshot.sourceInfo('DE/BGH').documents_by_namespace).toEqual({ case_law: 2, legislation: 0, doctrine: 0 });
  });

  it('resolves codes case-insensitively', () => {
    expect(snapshot.resolveCountry('coe')).toBe('CoE');
    expect(snapshot.resolveSource('de/bgh')).toBe('DE/BGH');
    expect(snapshot.resolveCountry('XX')).toBeNull();
  });

  it('gives the filter values of the largest namespace by default', () => {
    const f = snapshot.filters('DE/BGH');
    expect(f).toMatchObject({ namespace: 'case_law', total_documents: 2, courts: ['BGH'], chambers: ['VI'], decision_types: ['Urteil'], languages: ['de'], court_tiers: [1] });
    expect(f.date_range).toEqual({ min: '2019-05-01', max: '2021-01-02' });
    expect(snapshot.filters('DE/BGH', 'doctrine').total_documents).toBe(0);
  });

  it('lists courts with counts and filters by country', () => {
    expect(snapshot.courts({})).toEqual([
      { court: 'BGH', country: 'DE', source: 'DE/BGH', court_tier: 1, total_documents: 2 },
      { court: 'ECtHR', country: 'CoE', source: 'CoE/HUDOC', court_tier: null, total_documents: 1 },
    ]);
    expect(snapshot.courts({ country: 'CoE' }).map((c) => c.court)).toEqual(['ECtHR']);
  });

  it('summarises statistics and the manifest', () => {
    const stats = snapshot.stats();
    expect(stats).toMatchObject({ total_documents: 4, countries: 2, sources: 3, catalogued_sources: 3, documents_by_namespace: { case_law: 3, legislation: 1, doctrine: 0 } });
    expect(stats.date_range).toEqual({ min: '2019-05-01', max: '2021-01-02' });
    const manifest = snapshot.manifest({ name: 'x', version: '0.1.0', engine: 'embedded', endpoints: [] });
    expect(manifest.collections.find((c) => c.namespace === 'case_law')).toEqual({ namespace: 'case_law', total_documents: 3, sources: 2 });
    expect(manifest.search.hybrid).toBe(false);
  });
});
