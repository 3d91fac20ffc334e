import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { listDocumentFiles } from '../corpus/corpus-reader.js';
import { createLogger } from '../../../logger.js';
import { countCorpusVocabulary } from './corpus-vocabulary.js';

const record = (n: number, text: string, language: string | null) =>
  JSON.stringify({ source: 'XX/Test', source_id: String(n), namespace: 'legislation', country: 'XX', title: `Art. ${n}`, text, language });

describe('the compound vocabulary counted from the corpus files', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts the words of the documents in compounding languages once per document, and logs its progress', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'corpus-vocabulary-'));
    await mkdir(path.join(dir, 'documents/legislation'), { recursive: true });
    const lines = [
      record(1, 'Der Schaden ist zu ersetzen, der Schaden ganz.', 'de'),
      record(2, 'Ersatz für den Schaden.', 'de'),
      record(3, 'Schaden und Ersatz.', 'de'),
      // no language given: detected as German
      record(4, 'Der Ersatz des Schadens ist in Geld zu leisten und nicht durch die Herstellung.', null),
      record(5, 'Le dommage est réparé; Schaden Schaden Ersatz.', 'fr'),
      'not json',
    ];
    await writeFile(path.join(dir, 'documents/legislation/XX-Test.jsonl.gz'), gzipSync(lines.join('\n')));
    const logged: string[] = [];
    const logger = createLogger('info', (line) => logged.push(line));
    const vocabulary = (await countCorpusVocabulary(await listDocumentFiles(dir), { logger }))!;
    expect(vocabulary.origin).toBe('corpus');
    expect(vocabulary.count('schaden', 'de')).toBe(3); // once per document, the French one not counted
    expect(vocabulary.count('ersatz', 'de')).toBe(3);
    expect(vocabulary.count('schadens', 'de')).toBe(0); // one document: below the vocabulary's minimum
    expect(vocabulary.split('schadensersatz', 'de')).toEqual(['schaden', 'ersatz']);
    expect(logged.join('\n')).toMatch(/compound vocabulary counted from 4 of 5 documents/);
  });

  it('stops when the ingest is aborted', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'corpus-vocabulary-'));
    await mkdir(path.join(dir, 'documents/legislation'), { recursive: true });
    await writeFile(path.join(dir, 'documents/legislation/XX-Test.jsonl.gz'), gzipSync(record(1, 'Schaden', 'de')));
    const controller = new AbortController();
    controller.abort();
    expect(await countCorpusVocabulary(await listDocumentFiles(dir), { logger: createLogger('silent'), signal: controller.signal })).toBeNull();
  });
});
