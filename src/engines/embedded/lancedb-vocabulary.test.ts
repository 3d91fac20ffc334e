import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LegalDocument } from '../../domain/legal-document.js';
import { VocabularyCounter } from '../compounds.js';
import { foldedWords } from '../text-folding.js';
import { LanceDbEngine } from './lancedb-engine.js';
import { VOCABULARY_FILE } from './lancedb-vocabulary.js';
import { makeDocument } from '../../../test/fixtures/legal-document.js';

const doc = (n: number, text: string): LegalDocument => makeDocument({ source: 'DE/Test', source_id: String(n), title: `§ ${n}`, text, language: 'de' });

// "Schaden" and "Ersatz" are corpus words (3 passages each, the vocabulary's minimum); "Schadensersatz" is none.
const TEXTS = [
  'Wer das Eigentum verletzt, schuldet Ersatz für den Schaden.',
  'Der Schaden ist in Geld zu ersetzen; der Ersatz umfasst den entgangenen Gewinn.',
  'Ersatz für einen Schaden nur bei Verschulden.',
  'Die Miete ist monatlich zu zahlen.',
];

describe('the compound vocabulary of the embedded engine', () => {
  let root: string;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('is built once writes have been quiet after an optimize, stored beside the index, and used by the keyword leg', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'lancedb-vocabulary-'));
    const dir = path.join(root, 'index');
    const engine = new LanceDbEngine(dir, { vocabularyQuietMs: 100 });
    await engine.open();
    await engine.upsertDocuments(TEXTS.map((t, i) => ({ document: doc(i + 1, t), contentHash: 'h', chunks: [{ content: t }] })));
    await engine.optimize();
    const filters = { namespace: 'legislation' as const, countries: ['DE'] };
    // Before the vocabulary exists, the compound finds nothing (no passage uses the word).
    expect(existsSync(path.join(dir, VOCABULARY_FILE))).toBe(false);
    expect(await engine.keywordSearch('Schadensersatz', filters, 10)).toEqual([]);
    for (let i = 0; i < 100 && !existsSync(path.join(dir, VOCABULARY_FILE)); i++) await new Promise((r) => setTimeout(r, 50));
    await engine.vocabularyReady();
    expect(existsSync(path.join(dir, VOCABULARY_FILE))).toBe(true);
    const found = (await engine.keywordSearch('Schadensersatz', filters, 10)).map((h) => h.docId);
    expect(found).toEqual(expect.arrayContaining(['DE/Test/1', 'DE/Test/2', 'DE/Test/3']));
    expect(found).not.toContain('DE/Test/4');
    await engine.close();

    // A restart loads it from disk.
    const again = new LanceDbEngine(dir);
    await again.open();
    expect((await again.keywordSearch('Schadensersatz', filters, 10)).length).toBe(3);
    await again.close();
  });

  it('splits the compounds of documents at index time with a vocabulary counted before the writes, and keeps it', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'lancedb-vocabulary-'));
    const dir = path.join(root, 'index');
    const filters = { namespace: 'legislation' as const, countries: ['DE'] };
    // The only passage of "Schadensersatz" spells it inside a longer compound ("Pflicht" is a
    // corpus word too: 3 passages).
    const texts = [...TEXTS, 'Schadensersatzpflicht des Halters eines Tieres.', 'Die Pflicht des Mieters.', 'Eine Pflicht zur Anzeige.', 'Pflicht'];
    // What an ingest counts from the corpus files before it writes (see corpus-vocabulary.ts).
    const counter = new VocabularyCounter();
    for (const t of texts) counter.add(foldedWords(t), 'de');
    const engine = new LanceDbEngine(dir, { vocabularyQuietMs: 50 });
    await engine.open();
    expect(await engine.needsCompoundVocabulary()).toBe(true);
    await engine.setCompoundVocabulary(counter.finish(texts.length, 'corpus'));
    await engine.upsertDocuments(texts.map((t, i) => ({ document: doc(i + 1, t), contentHash: 'h', chunks: [{ content: t }] })));
    await engine.optimize();
    const found = (await engine.keywordSearch('Schadensersatz', filters, 10)).map((h) => h.docId);
    expect(found).toEqual(expect.arrayContaining(['DE/Test/1', 'DE/Test/2', 'DE/Test/3', 'DE/Test/5'])); // 5 through schadens|ersatz|pflicht
    expect(found).not.toContain('DE/Test/4');
    expect(found).not.toContain('DE/Test/6');
    // A background rebuild never replaces it (the written terms depend on it), and an
    // incremental ingest keeps it.
    await new Promise((r) => setTimeout(r, 200));
    await engine.vocabularyReady();
    expect(await engine.needsCompoundVocabulary()).toBe(false);
    await engine.close();

    // Without a corpus vocabulary (writes outside an ingest) documents are not split: the
    // vocabulary gathered from the index splits the query only, and misses the compound.
    const plain = new LanceDbEngine(path.join(root, 'plain'), { vocabularyQuietMs: 50 });
    await plain.open();
    await plain.upsertDocuments(texts.map((t, i) => ({ document: doc(i + 1, t), contentHash: 'h', chunks: [{ content: t }] })));
    await plain.optimize();
    for (let i = 0; i < 100 && !existsSync(path.join(root, 'plain', VOCABULARY_FILE)); i++) await new Promise((r) => setTimeout(r, 50));
    await plain.vocabularyReady();
    const plainFound = (await plain.keywordSearch('Schadensersatz', filters, 10)).map((h) => h.docId);
    expect(plainFound).toEqual(expect.arrayContaining(['DE/Test/1', 'DE/Test/2', 'DE/Test/3']));
    expect(plainFound).not.toContain('DE/Test/5');
    await plain.close();

    // A restart reads the stored one; an empty index counts a new one.
    const again = new LanceDbEngine(dir);
    await again.open();
    expect(await again.needsCompoundVocabulary()).toBe(false);
    expect((await again.keywordSearch('Schadensersatz', filters, 10)).map((h) => h.docId)).toContain('DE/Test/5');
    await again.deleteDocuments(texts.map((_, i) => `DE/Test/${i + 1}`));
    expect(await again.needsCompoundVocabulary()).toBe(true);
    await again.close();
  });
});
