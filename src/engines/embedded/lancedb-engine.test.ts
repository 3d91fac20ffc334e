import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { writeTinyStaticModel } from '../../../test/fixtures/tiny-static-model.js';
import type { LegalDocument } from '../../domain/legal-document.js';
import type { Embedder } from '../embedder.js';
import { loadStaticEmbedder } from '../embedders/static-embedder.js';
import type { DocumentInput, EngineFilters, StoredChunk } from '../search-engine.js';
import { buildWhere, LanceDbEngine } from './lancedb-engine.js';
import { METADATA_COLUMNS, rowToMetadata } from './lancedb-tables.js';
import { makeDocument as makeDoc } from '../../../test/fixtures/legal-document.js';

function input(doc: LegalDocument, chunks?: string[], hash = 'h1'): DocumentInput {
  return { document: doc, contentHash: hash, chunks: (chunks ?? [doc.text]).map((content) => ({ content })) };
}

async function withVectors(embedder: Embedder, inputs: DocumentInput[]): Promise<DocumentInput[]> {
  for (const i of inputs) {
    const vectors = await embedder.embedPassages(i.chunks.map((c) => `${i.document.title}\n${c.content}`));
    i.chunks.forEach((c, n) => (c.vector = vectors[n]));
  }
  return inputs;
}

const BGB_823 = makeDoc({
  source: 'DE/GesetzeImInternet',
  source_id: 'bgb/823',
  title: '§ 823 BGB – Schadensersatzpflicht',
  text: 'Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit verletzt, ist dem anderen zum Ersatz des daraus entstehenden Schadens verpflichtet.',
  language: 'de',
  date: '2002-01-02',
  canonical_path: 'BGB > Buch 2 > § 823',
  short_names: ['BGB'],
  granularity: 'article',
  unit_type: 'paragraph',
  unit_number: '823',
  parent_source_id: 'bgb',
  extra: { note: 'it\'s "quoted"', n: 1 },
});
const CODE_CIVIL = makeDoc({
  source: 'FR/LegifranceCodes',
  source_id: 'LEGIARTI000032041571',
  title: 'Article 1240 - Code civil',
  text: "Tout fait quelconque de l'homme, qui cause à autrui un dommage, oblige celui par la faute duquel il est arrivé à le réparer.",
  language: 'fr',
  date: '2016-10-01',
  short_names: ['C. civ.'],
});
const GDPR = makeDoc({
  source: 'EU/EUR-Lex',
  source_id: '32016R0679',
  title: 'General Data Protection Regulation',
  text: 'Regulation on the protection of natural persons with regard to the processing of personal data and on the free movement of such data.',
  language: 'en',
  date: '2016-04-27',
  short_names: ['GDPR', 'DSGVO'],
});
const BGH = makeDoc({
  source: 'DE/BGH',
  source_id: 'VI ZR 1/20',
  namespace: 'case_law',
  title: 'BGH, Urteil vom 12.01.2021 – VI ZR 1/20',
  text: 'Der Kläger verlangt Schadensersatz wegen einer Verletzung des Vertrags. Die Revision hat Erfolg.',
  language: 'de',
  date: '2021-01-12',
  court: 'Bundesgerichtshof',
  court_tier: 1,
  jurisdiction: 'civil',
  ecli: 'ECLI:DE:BGH:2021:120121UVIZR1.20.0',
});
const PARIS = makeDoc({
  source: 'FR/CA',
  source_id: "it's/42",
  namespace: 'case_law',
  title: "Cour d'appel de Paris, 3 mars 2019",
  text: "La cour d'appel condamne la société au paiement de dommages et intérêts pour rupture du contrat.",
  language: 'fr',
  date: '2019-03-03',
  court: "Cour d'appel de Paris",
  court_tier: 2,
  jurisdiction: "commercial'; DROP TABLE chunks; --",
});
const ALL = [BGB_823, CODE_CIVIL, GDPR, BGH, PARIS];

const legislation: EngineFilters = { namespace: 'legislation' };
const caseLaw: EngineFilters = { namespace: 'case_law' };
const ids = (hits: { docId: string }[]) => hits.map((h) => h.docId);

/** Whether the current vector table (the one meta.json names) has its vector index, read from disk. */
async function vectorIndexOnDisk(dir: string): Promise<boolean> {
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as { vectorTable: string };
  const db = await lancedb.connect(dir);
  const table = await db.openTable(meta.vectorTable);
  try {
    return (await table.listIndices()).some((index) => index.columns.includes('vector'));
  } finally {
    table.close();
    db.close();
  }
}

/** Columns with an index in one table of the engine directory. */
async function indexedColumns(dir: string, name: string): Promise<string[]> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable(name);
  try {
    return (await table.listIndices()).flatMap((index) => index.columns);
  } finally {
    table.close();
    db.close();
  }
}

describe('LanceDbEngine', () => {
  let root: string;
  let engine: LanceDbEngine;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'lancedb-engine-'));
    engine = new LanceDbEngine(path.join(root, 'index'), { vectorIndexMinRows: 1_000_000 });
    await engine.open();
  });
  afterAll(async () => {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers on an empty index without throwing', async () => {
    expect(await engine.keywordSearch('Schadensersatzpflicht', legislation, 10)).toEqual([]);
    expect(await engine.vectorSearch(new Float32Array([1, 0, 0]), legislation, 10)).toEqual([]);
    expect(await engine.countDocuments()).toBe(0);
    expect(await engine.countChunks()).toEqual({ total: 0, withVectors: 0 });
    expect(await engine.vectorModel()).toBeNull();
    expect(await engine.getDocuments(['nope'])).toEqual(new Map());
  });

  it('upserts documents and finds them by keyword, best chunk per document', async () => {
    await engine.upsertDocuments(ALL.map((d) => input(d)));
    expect(await engine.countDocuments()).toBe(5);
    const hits = await engine.keywordSearch('Schadensersatzpflicht', legislation, 10);
    expect(ids(hits)).toEqual([BGB_823.id]); // from the title
    expect(ids(await engine.keywordSearch('Schaden verletzt', legislation, 10))).toEqual([BGB_823.id]); // stems of the text
    expect(hits[0].score).toBeGreaterThan(0);
    // The leg names the best chunk; its text is read only for the hits a search returns.
    expect(hits[0].passage).toBe('');
    expect(hits[0].chunkId).toBe(`${BGB_823.id}#0`);
    expect(await engine.passages([hits[0].chunkId!, 'XX/none/x#0'])).toEqual(new Map([[hits[0].chunkId!, BGB_823.text]]));
    // French query, language unknown, against French-stemmed text.
    expect(ids(await engine.keywordSearch('dommages causés à autrui', legislation, 10))).toEqual([CODE_CIVIL.id]);
    // Short names and identifiers are searchable.
    expect(ids(await engine.keywordSearch('DSGVO', legislation, 10))).toEqual([GDPR.id]);
    expect(ids(await engine.keywordSearch('ECLI:DE:BGH:2021:120121UVIZR1.20.0', caseLaw, 10))).toEqual([BGH.id]);
    expect(await engine.keywordSearch('the of', legislation, 10)).toEqual([]);
  });

  it('collapses several matching chunks of one document into one hit', async () => {
    const doc = makeDoc({ source: 'XX/Test', source_id: 'multi', title: 'Multi', text: 'x', language: 'en' });
    await engine.upsertDocuments([input(doc, ['tenancy deposit rules', 'tenancy deposit return', 'tenancy deposit interest'])]);
    const hits = await engine.keywordSearch('tenancy deposit', legislation, 10);
    expect(ids(hits)).toEqual([doc.id]);
    expect(await engine.countChunks()).toMatchObject({ total: 8 });
    await engine.deleteDocuments([doc.id]);
  });

  it('ranks the passage holding every word of the question above one repeating some of them', async () => {
    const repeats = makeDoc({ source: 'XX/Test', source_id: 'repeats', title: 'Hedgehog', text: 'x', language: 'en' });
    const covers = makeDoc({ source: 'XX/Test', source_id: 'covers', title: 'Ferret', text: 'x', language: 'en' });
    await engine.upsertDocuments([
      input(repeats, ['walrus walrus walrus narwhal narwhal narwhal']),
      input(covers, ['walrus narwhal and a lonely puffin among many other words of a longer passage']),
    ]);
    try {
      // BM25 alone prefers the repetitions: one word of the question is enough to see it.
      const twoWords = await engine.keywordSearch('walrus narwhal', legislation, 10);
      expect(ids(twoWords)).toEqual([repeats.id, covers.id]);
      expect(twoWords.every((h) => h.coverage?.complete === true && h.coverage.factor === 1)).toBe(true);
      const hits = await engine.keywordSearch('walrus narwhal puffin', legislation, 10);
      expect(ids(hits)).toEqual([covers.id, repeats.id]);
      expect(hits[0].coverage).toEqual({ concepts: 3, complete: true, factor: 1 });
      expect(hits[1].coverage).toEqual({ concepts: 3, complete: false, factor: 2 / 3 });
      // One concept: nothing to cover; more than 20: not weighed (the factor would be ≥ 0.95).
      expect((await engine.keywordSearch('walrus', legislation, 10)).every((h) => h.coverage === undefined)).toBe(true);
      const long = await engine.keywordSearch(['walrus narwhal puffin', ...Array.from({ length: 18 }, (_, i) => `kelp${i}`)].join(' '), legislation, 10);
      expect(ids(long).sort()).toEqual([covers.id, repeats.id].sort());
      expect(long.every((h) => h.coverage === undefined)).toBe(true);
      const twenty = await engine.keywordSearch(['walrus narwhal puffin', ...Array.from({ length: 17 }, (_, i) => `kelp${i}`)].join(' '), legislation, 10);
      expect(twenty[1].coverage).toEqual({ concepts: 20, complete: false, factor: 19 / 20 });
    } finally {
      await engine.deleteDocuments([repeats.id, covers.id]);
    }
  });

  it('applies every filter to the keyword leg', async () => {
    const q = 'Schadensersatz dommages contrat Vertrag';
    expect(ids(await engine.keywordSearch(q, { namespace: 'case_law' }, 10)).sort()).toEqual([BGH.id, PARIS.id].sort());
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, countries: ['FR'] }, 10))).toEqual([PARIS.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, countries: ['FR', 'DE'] }, 10))).toHaveLength(2);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, sources: ['DE/BGH'] }, 10))).toEqual([BGH.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, court: 'Bundesgerichtshof' }, 10))).toEqual([BGH.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, courtTier: 2 }, 10))).toEqual([PARIS.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, jurisdiction: 'civil' }, 10))).toEqual([BGH.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, language: 'fr' }, 10))).toEqual([PARIS.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, dateStart: '2020-01-01' }, 10))).toEqual([BGH.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, dateEnd: '2019-03-03' }, 10))).toEqual([PARIS.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, dateStart: '2019-03-03', dateEnd: '2019-03-03' }, 10))).toEqual([PARIS.id]);
    expect(await engine.keywordSearch(q, { ...caseLaw, dateStart: '2022-01-01' }, 10)).toEqual([]);
    // Filters are prefilters: the best match overall does not hide a filtered one.
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, courtTier: 2 }, 1))).toEqual([PARIS.id]);
  });

  it('survives quotes and SQL in filter values', async () => {
    const q = 'dommages contrat';
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, court: "Cour d'appel de Paris" }, 10))).toEqual([PARIS.id]);
    expect(ids(await engine.keywordSearch(q, { ...caseLaw, jurisdiction: "commercial'; DROP TABLE chunks; --" }, 10))).toEqual([PARIS.id]);
    expect(await engine.keywordSearch(q, { ...caseLaw, sources: ["FR/CA' OR '1'='1"] }, 10)).toEqual([]);
    expect(await engine.countChunks()).toMatchObject({ total: 5 });
    expect(() => buildWhere({ ...caseLaw, courtTier: 1.5 })).toThrow(/integer/);
    expect(buildWhere({ namespace: 'case_law', court: "a'b" })).toBe("namespace = 'case_law' AND court = 'a''b'");
  });

  it('returns full documents, with slashes and quotes in ids', async () => {
    const docs = await engine.getDocuments([BGB_823.id, PARIS.id, 'DE/GesetzeImInternet/unknown']);
    expect([...docs.keys()].sort()).toEqual([BGB_823.id, PARIS.id].sort());
    expect(docs.get(BGB_823.id)).toEqual(BGB_823);
    expect(docs.get(PARIS.id)).toEqual(PARIS);
    expect(PARIS.id).toBe("FR/CA/it's/42");
  });

  it('reports content hashes and scans metadata without text', async () => {
    const hashes = await engine.contentHashes([BGB_823.id, GDPR.id, 'missing']);
    expect(hashes).toEqual(new Map([[BGB_823.id, 'h1'], [GDPR.id, 'h1']]));
    const rows = [];
    for await (const batch of engine.scanMetadata()) rows.push(...batch);
    expect(rows.map((r) => r.id).sort()).toEqual(ALL.map((d) => d.id).sort());
    const bgh = rows.find((r) => r.id === BGH.id)!;
    expect(bgh).not.toHaveProperty('text');
    expect(bgh).not.toHaveProperty('extra');
    expect(bgh.court_tier).toBe(1);
    expect(rows.find((r) => r.id === GDPR.id)!.short_names).toEqual(['GDPR', 'DSGVO']);
  });

  it('replaces the chunks of a re-upserted document', async () => {
    const doc = makeDoc({ source: 'XX/Test', source_id: 'a/b/c', title: 'Replaceable', text: 'v1', language: 'en' });
    await engine.upsertDocuments([input(doc, ['alpha parrots', 'beta parrots', 'gamma parrots'], 'v1')]);
    expect(await engine.countChunks()).toMatchObject({ total: 8 });
    expect(ids(await engine.keywordSearch('parrots', legislation, 10))).toEqual([doc.id]);
    const v2 = { ...doc, text: 'v2' };
    await engine.upsertDocuments([input(v2, ['delta pelicans'], 'v2')]);
    expect(await engine.countChunks()).toMatchObject({ total: 6 });
    expect(await engine.keywordSearch('parrots', legislation, 10)).toEqual([]);
    expect(ids(await engine.keywordSearch('pelicans', legislation, 10))).toEqual([doc.id]);
    expect((await engine.getDocuments([doc.id])).get(doc.id)!.text).toBe('v2');
    expect((await engine.contentHashes([doc.id])).get(doc.id)).toBe('v2');
    expect(await engine.countDocuments()).toBe(6);
    await engine.deleteDocuments([doc.id]);
    expect(await engine.countDocuments()).toBe(5);
    expect(await engine.countChunks()).toMatchObject({ total: 5 });
    expect(await engine.keywordSearch('pelicans', legislation, 10)).toEqual([]);
    expect(await engine.getDocuments([doc.id])).toEqual(new Map());
  });

  it('reads documents without their text for hits that only show a passage', async () => {
    const docs = await engine.getDocumentsWithoutText([BGB_823.id, GDPR.id, 'nope']);
    expect([...docs.keys()].sort()).toEqual([BGB_823.id, GDPR.id].sort());
    const bgb = docs.get(BGB_823.id)!;
    expect(bgb).not.toHaveProperty('text');
    expect(bgb).not.toHaveProperty('extra');
    const full = (await engine.getDocuments([BGB_823.id])).get(BGB_823.id)!;
    const { text: _t, extra: _e, ...rest } = full;
    expect(bgb).toEqual(rest);
  });

  it('serves repeated reads of passages from memory, and forgets them after a write', async () => {
    const article = makeDoc({
      source: 'DE/GesetzeImInternet',
      source_id: 'bgb/824',
      title: '§ 824 BGB – before',
      text: 'Kreditgefährdung vorher.',
      language: 'de',
      canonical_path: 'BGB > Buch 2 > § 824',
      parent_source_id: 'bgb',
    });
    await engine.upsertDocuments([input(article)]);
    const [hit] = await engine.keywordSearch('Kreditgefährdung', legislation, 5);
    expect(hit.docId).toBe(article.id);
    const read = async () => ({
      title: (await engine.getDocumentsWithoutText([article.id])).get(article.id)?.title,
      passage: (await engine.passages([hit.chunkId!])).get(hit.chunkId!),
      parent: (await engine.documentPlaces([article.id])).get(article.id)?.parentId,
    });
    expect(await read()).toEqual({ title: '§ 824 BGB – before', passage: 'Kreditgefährdung vorher.', parent: 'DE/GesetzeImInternet/bgb' });
    expect(await read()).toEqual({ title: '§ 824 BGB – before', passage: 'Kreditgefährdung vorher.', parent: 'DE/GesetzeImInternet/bgb' });

    await engine.upsertDocuments([input({ ...article, title: '§ 824 BGB – after', text: 'Kreditgefährdung nachher.', parent_source_id: null }, undefined, 'h2')]);
    expect(await read()).toEqual({ title: '§ 824 BGB – after', passage: 'Kreditgefährdung nachher.', parent: undefined });
    await engine.deleteDocuments([article.id]);
    expect(await engine.getDocumentsWithoutText([article.id])).toEqual(new Map());
    expect(await engine.documentPlaces([article.id])).toEqual(new Map());
  });

  it("sees another process's writes in its cached reads within the read-consistency interval", async () => {
    const dir = path.join(root, 'shared-index');
    const reader = new LanceDbEngine(dir, { readConsistencySeconds: 0 });
    const writer = new LanceDbEngine(dir, { readConsistencySeconds: 0 });
    try {
      await writer.open();
      const doc = makeDoc({ source: 'EU/EUR-Lex', source_id: 'shared', title: 'Shared', text: 'first text', language: 'en' });
      await writer.upsertDocuments([input(doc)]);
      await reader.open();
      const chunk = `${doc.id}#0`;
      expect((await reader.passages([chunk])).get(chunk)).toBe('first text');
      await writer.upsertDocuments([input({ ...doc, text: 'second text' }, undefined, 'h2')]);
      // the cache looks at the table's version at most once a second
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await reader.passages([chunk])).get(chunk)).toBe('second text');
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('recovers from a crash between writing chunks and the document row', async () => {
    const doc = makeDoc({ source: 'XX/Test', source_id: 'crash/1', title: 'Crash', text: 'x', language: 'en' });
    const before = (await engine.countChunks()).total;
    const documents = (engine as any).documents;
    const add = documents.add;
    documents.add = async () => {
      throw new Error('simulated crash');
    };
    try {
      await expect(engine.upsertDocuments([input(doc, ['ostrich law', 'emu law'], 'c1')])).rejects.toThrow('simulated crash');
    } finally {
      documents.add = add;
    }
    // The hash is not stored, so an ingest sees the document as changed and writes it again.
    expect(await engine.contentHashes([doc.id])).toEqual(new Map());
    await engine.upsertDocuments([input(doc, ['ostrich law', 'emu law'], 'c1')]);
    expect((await engine.countChunks()).total).toBe(before + 2);
    expect((await engine.contentHashes([doc.id])).get(doc.id)).toBe('c1');
    await engine.deleteDocuments([doc.id]);
    expect((await engine.countChunks()).total).toBe(before);
  });

  it('removes the passages a crashed process left when the next process writes to the folder', async () => {
    const dir = path.join(root, 'crashed-writer');
    const doc = makeDoc({ source: 'XX/Test', source_id: 'crash/3', title: 'Crash three', text: 'x', language: 'en' });
    const other = makeDoc({ source: 'XX/Test', source_id: 'crash/4', title: 'Crash four', text: 'y', language: 'en' });
    const crashed = new LanceDbEngine(dir);
    await crashed.open();
    await crashed.upsertDocuments([input(other, ['dingo law'], 'o1')]);
    (crashed as any).documents.add = async () => {
      throw new Error('simulated crash');
    };
    await expect(crashed.upsertDocuments([input(doc, ['ostrich law', 'emu law'], 'c1')])).rejects.toThrow('simulated crash');
    await crashed.close();
    const look = await lancedb.connect(dir);
    expect(await (await look.openTable('chunks')).countRows()).toBe(3); // the crash's two passages are there
    look.close();

    const next = new LanceDbEngine(dir);
    await next.open();
    try {
      expect(await next.contentHashes([doc.id, other.id])).toEqual(new Map([[other.id, 'o1']]));
      expect((await next.countChunks()).total).toBe(1);
      await next.upsertDocuments([input(doc, ['ostrich law', 'emu law'], 'c1')]);
      expect((await next.countChunks()).total).toBe(3);
      expect(ids(await next.keywordSearch('ostrich', legislation, 10))).toEqual([doc.id]);
    } finally {
      await next.close();
    }
  });

  it("answers content hashes from what it wrote, and from another writer's documents once the tables moved", async () => {
    const dir = path.join(root, 'two-writers');
    const first = new LanceDbEngine(dir, { readConsistencySeconds: 0 });
    const second = new LanceDbEngine(dir, { readConsistencySeconds: 0 });
    const a = makeDoc({ source: 'XX/Test', source_id: 'ledger/a', title: 'A', text: 'a', language: 'en' });
    const b = makeDoc({ source: 'XX/Test', source_id: 'ledger/b', title: 'B', text: 'b', language: 'en' });
    try {
      await first.open();
      await second.open();
      await first.upsertDocuments([input(a, ['aardvark'], 'a1')]);
      await first.optimize();
      expect(await first.contentHashes([a.id, b.id])).toEqual(new Map([[a.id, 'a1']]));
      await second.upsertDocuments([input(b, ['badger'], 'b1')]);
      await second.deleteDocuments([a.id]);
      expect(await first.contentHashes([a.id, b.id])).toEqual(new Map([[b.id, 'b1']]));
      // the first writer's own update is what its next answer and the table say
      await first.upsertDocuments([input(b, ['bison'], 'b2')]);
      expect(await first.contentHashes([b.id])).toEqual(new Map([[b.id, 'b2']]));
      expect(await second.contentHashes([b.id])).toEqual(new Map([[b.id, 'b2']]));
      expect((await second.countChunks()).total).toBe(1);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('keeps the old content hash when an update crashes before its new chunks are in', async () => {
    const doc = makeDoc({ source: 'XX/Test', source_id: 'crash/2', title: 'Crash two', text: 'v1', language: 'en' });
    await engine.upsertDocuments([input(doc, ['cassowary rule'], 'v1')]);
    const chunks = (engine as any).chunks;
    const add = chunks.add;
    chunks.add = async () => {
      throw new Error('simulated crash');
    };
    try {
      await expect(engine.upsertDocuments([input({ ...doc, text: 'v2' }, ['kiwi rule'], 'v2')])).rejects.toThrow('simulated crash');
    } finally {
      chunks.add = add;
    }
    // Still the old hash: the resumed ingest sees a change and writes the new chunks.
    expect((await engine.contentHashes([doc.id])).get(doc.id)).toBe('v1');
    await engine.upsertDocuments([input({ ...doc, text: 'v2' }, ['kiwi rule'], 'v2')]);
    expect(ids(await engine.keywordSearch('kiwi', legislation, 10))).toEqual([doc.id]);
    await engine.deleteDocuments([doc.id]);
  });

  it('keeps working through optimize and finds rows appended after it', async () => {
    await engine.optimize();
    expect(ids(await engine.keywordSearch('Schadensersatzpflicht', legislation, 10))).toEqual([BGB_823.id]);
    const late = makeDoc({ source: 'XX/Test', source_id: 'late', title: 'Late arrival', text: 'kangaroo courts', language: 'en' });
    await engine.upsertDocuments([input(late)]);
    expect(ids(await engine.keywordSearch('kangaroo', legislation, 10))).toEqual([late.id]);
    await engine.optimize();
    expect(ids(await engine.keywordSearch('kangaroo', legislation, 10))).toEqual([late.id]);
    await engine.deleteDocuments([late.id]);
  });

  it('keeps answering searches while an ingest appends and optimizes', async () => {
    const docs = Array.from({ length: 12 }, (_, i) =>
      makeDoc({ source: 'XX/Load', source_id: `n/${i}`, title: `Load ${i}`, text: `wombat statute number ${i}`, language: 'en' }),
    );
    const writer = (async () => {
      for (let i = 0; i < docs.length; i += 3) {
        await engine.upsertDocuments(docs.slice(i, i + 3).map((d) => input(d)));
        if (i === 6) await engine.optimize();
      }
    })();
    const seen: number[] = [];
    let done = false;
    void writer.finally(() => (done = true));
    while (!done) {
      seen.push((await engine.keywordSearch('wombat', legislation, 50)).length);
      expect(ids(await engine.keywordSearch('Schadensersatzpflicht', legislation, 10))).toEqual([BGB_823.id]);
    }
    await writer;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // only ever grows
    expect(await engine.keywordSearch('wombat', legislation, 50)).toHaveLength(12);
    await engine.deleteDocuments(docs.map((d) => d.id));
    expect(await engine.keywordSearch('wombat', legislation, 50)).toEqual([]);
  });

  describe('vector leg', () => {
    let embedder: Embedder;
    let other: Embedder;

    beforeAll(async () => {
      embedder = await loadStaticEmbedder((await writeTinyStaticModel(path.join(root, 'model-a'), { dimension: 16 })).dir);
      other = await loadStaticEmbedder((await writeTinyStaticModel(path.join(root, 'model-b'), { dimension: 8 })).dir);
    });

    const contractDoc = makeDoc({
      source: 'XX/Vec', source_id: 'contract', title: 'Breach', text: 'breach of contract and damages', language: 'en', date: '2020-01-01',
    });
    const privacyDoc = makeDoc({
      source: 'XX/Vec', source_id: 'privacy', title: 'Consent', text: 'consent to processing of personal data', language: 'en', date: '2010-01-01',
    });

    it('refuses vectors before a model is declared', async () => {
      await expect(engine.upsertDocuments(await withVectors(embedder, [input(contractDoc)]))).rejects.toThrow(/setVectorModel/);
      expect((await engine.getDocuments([contractDoc.id])).size).toBe(0);
    });

    it('finds a semantically related document with zero word overlap', async () => {
      await engine.setVectorModel(embedder.id, embedder.dimension);
      expect(await engine.vectorModel()).toBe(embedder.id);
      await engine.upsertDocuments(await withVectors(embedder, [input(contractDoc), input(privacyDoc)]));
      expect(await engine.countChunks()).toEqual({ total: 7, withVectors: 2 });
      const query = 'liability compensation indemnity';
      expect(await engine.keywordSearch(query, legislation, 10)).toEqual([]);
      const [q] = await embedder.embedQueries([query]);
      const hits = await engine.vectorSearch(q, legislation, 10);
      expect(ids(hits)).toEqual([contractDoc.id, privacyDoc.id]);
      expect(hits[0].score).toBeGreaterThan(0.8);
      expect(hits[0].score).toBeLessThanOrEqual(1.0001);
      expect(hits[0].passage).toBe('');
      expect((await engine.passages([hits[0].chunkId!])).get(hits[0].chunkId!)).toBe(contractDoc.text);
      // Filters apply to the vector leg too.
      expect(ids(await engine.vectorSearch(q, { ...legislation, dateEnd: '2015-01-01' }, 10))).toEqual([privacyDoc.id]);
      expect(await engine.vectorSearch(q, caseLaw, 10)).toEqual([]);
      // A vector of another dimension finds nothing rather than failing.
      expect(await engine.vectorSearch(new Float32Array(3).fill(0.5), legislation, 10)).toEqual([]);
    });

    it('re-upserting a document replaces its vectors', async () => {
      await engine.upsertDocuments(await withVectors(embedder, [input({ ...contractDoc, text: 'tax income revenue' }, undefined, 'v2')]));
      expect(await engine.countChunks()).toEqual({ total: 7, withVectors: 2 });
      const [q] = await embedder.embedQueries(['vat fiscal']);
      expect(ids(await engine.vectorSearch(q, legislation, 1))).toEqual([contractDoc.id]);
      await engine.upsertDocuments(await withVectors(embedder, [input(contractDoc)]));
    });

    it('replaces every vector when the model changes, never mixing two models', async () => {
      const chunks: StoredChunk[] = [];
      for await (const batch of engine.scanChunks(3)) {
        expect(batch.length).toBeLessThanOrEqual(3);
        chunks.push(...batch);
      }
      expect(chunks).toHaveLength(7);
      expect(chunks.find((c) => c.docId === PARIS.id)).toMatchObject({ chunkId: `${PARIS.id}#0`, title: PARIS.title, content: PARIS.text });
      async function* vectors() {
        for (let i = 0; i < chunks.length; i += 3) {
          const slice = chunks.slice(i, i + 3);
          const v = await other.embedPassages(slice.map((c) => `${c.title}\n${c.content}`));
          yield new Map(slice.map((c, n) => [c.chunkId, v[n]]));
        }
      }
      await engine.replaceVectors(other.id, vectors());
      await engine.setVectorModel(other.id, other.dimension);
      expect(await engine.vectorModel()).toBe(other.id);
      const counts = await engine.countChunks();
      expect(counts.total).toBe(7);
      expect(counts.withVectors).toBeGreaterThanOrEqual(2); // chunks without a known word get no vector
      const [oldQuery] = await embedder.embedQueries(['liability compensation']);
      expect(await engine.vectorSearch(oldQuery, legislation, 10)).toEqual([]);
      const [q] = await other.embedQueries(['liability compensation']);
      expect(ids(await engine.vectorSearch(q, legislation, 10))[0]).toBe(contractDoc.id);
    });

    it('a failing replacement leaves the current vectors in place', async () => {
      async function* broken() {
        yield new Map([[`${contractDoc.id}#0`, new Float32Array(8).fill(0.1)]]);
        throw new Error('embedder crashed');
      }
      await expect(engine.replaceVectors('broken-model', broken())).rejects.toThrow(/crashed/);
      expect(await engine.vectorModel()).toBe(other.id);
      const [q] = await other.embedQueries(['liability compensation']);
      expect(ids(await engine.vectorSearch(q, legislation, 10))[0]).toBe(contractDoc.id);
    });

    it('declaring another model drops the old vectors; null removes them', async () => {
      await engine.setVectorModel(embedder.id, embedder.dimension);
      expect(await engine.countChunks()).toEqual({ total: 7, withVectors: 0 });
      await engine.setVectorModel(null, null);
      expect(await engine.vectorModel()).toBeNull();
    });

    it('persists across close and open', async () => {
      await engine.setVectorModel(embedder.id, embedder.dimension);
      await engine.upsertDocuments(await withVectors(embedder, [input(contractDoc, undefined, 'h3')]));
      await engine.optimize();
      await engine.close();
      engine = new LanceDbEngine(path.join(root, 'index'));
      await engine.open();
      expect(await engine.vectorModel()).toBe(embedder.id);
      expect(await engine.countDocuments()).toBe(7);
      expect(ids(await engine.keywordSearch('Schadensersatzpflicht', legislation, 10))).toEqual([BGB_823.id]);
      const [q] = await embedder.embedQueries(['liability compensation']);
      expect(ids(await engine.vectorSearch(q, legislation, 10))).toEqual([contractDoc.id]);
    });
  });

  it('filters before ranking (a weak match that passes the filter beats 40 strong ones that do not)', async () => {
    const pre = new LanceDbEngine(path.join(root, 'prefilter'));
    await pre.open();
    try {
      const strong = Array.from({ length: 40 }, (_, i) =>
        makeDoc({ source: 'AA/Src', source_id: `s${i}`, title: 'zebra', text: 'zebra zebra zebra', language: 'en' }),
      );
      const weak = makeDoc({ source: 'BB/Src', source_id: 'w', title: 'other', text: `zebra ${'filler words here '.repeat(50)}`, language: 'en' });
      await pre.upsertDocuments([...strong, weak].map((d) => input(d)));
      for (const round of ['appended', 'indexed']) {
        if (round === 'indexed') await pre.optimize();
        expect(ids(await pre.keywordSearch('zebra', { ...legislation, countries: ['BB'] }, 1))).toEqual([weak.id]);
        expect(await pre.keywordSearch('zebra', legislation, 100)).toHaveLength(41);
      }
    } finally {
      await pre.close();
    }
  });

  it('gives an index built without filter or id indexes those indexes when opened', async () => {
    const dir = path.join(root, 'older');
    const older = new LanceDbEngine(dir);
    await older.open();
    const docs = Array.from({ length: 3 }, (_, i) => makeDoc({ source: 'XX/Old', source_id: `o${i}`, title: `Old ${i}`, text: `wombat clause ${i}`, language: 'en' }));
    await older.upsertDocuments(docs.map((d) => input(d)));
    await older.optimize();
    await older.close();
    const db = await lancedb.connect(dir);
    const chunks = await db.openTable('chunks');
    for (const column of ['namespace', 'country', 'language', 'source', 'chunk_id']) await chunks.dropIndex(`${column}_idx`);
    chunks.close();
    db.close();
    expect(await indexedColumns(dir, 'chunks')).not.toContain('country');
    expect(await indexedColumns(dir, 'chunks')).not.toContain('chunk_id');
    const reopened = new LanceDbEngine(dir);
    await reopened.open();
    await reopened.close(); // waits for the background index build
    expect(await indexedColumns(dir, 'chunks')).toEqual(expect.arrayContaining(['namespace', 'country', 'language', 'source', 'chunk_id', 'doc_id']));
    const again = new LanceDbEngine(dir);
    await again.open();
    try {
      expect(ids(await again.keywordSearch('wombat', { ...legislation, countries: ['XX'] }, 10)).sort()).toEqual(docs.map((d) => d.id).sort());
    } finally {
      await again.close();
    }
  });

  it('optimizes by itself after many appended chunks', async () => {
    const auto = new LanceDbEngine(path.join(root, 'auto'), { autoOptimizeChunks: 4 });
    await auto.open();
    try {
      const docs = Array.from({ length: 6 }, (_, i) =>
        makeDoc({ source: 'XX/Auto', source_id: `a${i}`, title: `Auto ${i}`, text: `platypus clause ${i}`, language: 'en' }),
      );
      for (const d of docs) await auto.upsertDocuments([input(d)]);
      expect(await auto.keywordSearch('platypus', legislation, 10)).toHaveLength(6);
      const db = await lancedb.connect(path.join(root, 'auto'));
      const stats = await (await db.openTable('chunks')).indexStats('search_text_idx');
      expect(stats?.numIndexedRows).toBeGreaterThanOrEqual(5);
      db.close();
    } finally {
      await auto.close();
    }
  });

  describe('with a vector index', () => {
    it('builds an HNSW index once enough vectors exist and still filters', async () => {
      const embedder = await loadStaticEmbedder((await writeTinyStaticModel(path.join(root, 'model-c'), { dimension: 16 })).dir);
      const indexed = new LanceDbEngine(path.join(root, 'indexed'), { vectorIndexMinRows: 20 });
      await indexed.open();
      try {
        const topics = ['breach of contract damages', 'personal data consent', 'tax income revenue', 'criminal theft prison'];
        const docs = Array.from({ length: 40 }, (_, i) =>
          makeDoc({
            source: 'XX/Idx', source_id: `d${i}`, title: `Doc ${i}`, text: topics[i % 4], language: 'en',
            country: i % 2 ? 'AA' : 'BB', date: `20${String(10 + (i % 10)).padStart(2, '0')}-01-01`,
          }),
        );
        await indexed.setVectorModel(embedder.id, embedder.dimension);
        await indexed.upsertDocuments(await withVectors(embedder, docs.map((d) => input(d))));
        const steps: string[] = [];
        await indexed.optimize((step) => steps.push(step));
        expect(await vectorIndexOnDisk(path.join(root, 'indexed'))).toBe(true);
        // Each step is named as it starts (the ingest logs them: a long build is never silent).
        expect(steps).toEqual(['passage lookup indexes', 'compacting passages', 'compacting documents', 'vector lookup indexes', 'vector index (HNSW)', 'compacting vectors']);
        const [q] = await embedder.embedQueries(['liability compensation']);
        const hits = await indexed.vectorSearch(q, legislation, 5);
        expect(hits).toHaveLength(5);
        for (const h of hits) expect(Number(h.docId.split('/d')[1]) % 4).toBe(0);
        // Scores are the exact cosine similarity through the index too (the HNSW index alone
        // reports 2 - 2 cos on quantised vectors): the fusion's model scale depends on it.
        const [exact] = await embedder.embedPassages(['Doc 0\nbreach of contract damages']);
        const expected = q.reduce((sum, v, i) => sum + v * exact[i], 0);
        expect(hits.find((h) => h.docId === 'XX/Idx/d0')!.score).toBeCloseTo(expected, 5);
        // The legs' filter columns are indexed in both tables (no scan of every row per request).
        const meta = JSON.parse(await readFile(path.join(root, 'indexed', 'meta.json'), 'utf8')) as { vectorTable: string };
        for (const table of ['chunks', meta.vectorTable]) {
          expect(await indexedColumns(path.join(root, 'indexed'), table)).toEqual(expect.arrayContaining(['namespace', 'country', 'language', 'source']));
        }
        const filtered = await indexed.vectorSearch(q, { ...legislation, countries: ['AA'] }, 50);
        expect(filtered.length).toBeGreaterThan(0);
        for (const h of filtered) expect(Number(h.docId.split('/d')[1]) % 2).toBe(1);
        // A model change rebuilds the index on the new table before it goes live.
        const chunks: StoredChunk[] = [];
        for await (const batch of indexed.scanChunks(100)) chunks.push(...batch);
        async function* vectors() {
          const v = await embedder.embedPassages(chunks.map((c) => c.content));
          yield new Map(chunks.map((c, n) => [c.chunkId, v[n]]));
        }
        await indexed.replaceVectors(`${embedder.id}-v2`, vectors());
        expect(await indexed.vectorModel()).toBe(`${embedder.id}-v2`);
        const after = await indexed.vectorSearch(q, legislation, 5);
        expect(after).toHaveLength(5);
        for (const h of after) expect(Number(h.docId.split('/d')[1]) % 4).toBe(0);
        expect(await vectorIndexOnDisk(path.join(root, 'indexed'))).toBe(true);
      } finally {
        await indexed.close();
      }
    });
  });
});

describe('rowToMetadata', () => {
  it('gives every metadata column, in the columns order, with the row values (required ones as strings, the others nullable)', () => {
    const row: Record<string, unknown> = Object.fromEntries(METADATA_COLUMNS.map((c) => [c, `${c}-value`]));
    Object.assign(row, { court_tier: 2, short_names: '["BGB"]', court: null, date: undefined });
    const meta = rowToMetadata(row) as unknown as Record<string, unknown>;
    expect(Object.keys(meta)).toEqual(METADATA_COLUMNS);
    expect(meta).toMatchObject({ id: 'id-value', source: 'source-value', title: 'title-value', status: 'status-value', court: null, date: null, court_tier: 2, short_names: ['BGB'] });
    expect(rowToMetadata({ id: 'x' })).toMatchObject({ source: '', title: '', country: '', language: null, short_names: [] });
  });
});
