import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipLines, readRecords, writeCorpusSlice } from '../../../../test/fixtures/corpus-slice.js';
import { listDocumentFiles } from '../corpus/corpus-reader.js';
import { createLogger } from '../../../logger.js';
import { citationCountsFile, countCitations, loadCitationCounts, updateCitationCounts } from './citation-counts.js';

const logger = createLogger('silent');

describe('citation counts', () => {
  let corpus: string;
  let dataDir: string;

  beforeAll(async () => {
    const keep = new Set(['bgb', 'bgb/535', 'bgb/536', 'bgb/543']);
    ({ dir: corpus } = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: keep.size, keep: (r) => keep.has(String(r.source_id)) }]));
    const [decision] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const [guidance] = await readRecords('doctrine/FR-CNIL.jsonl.gz', 1);
    const text = (body: string) => `Tenor\n\nDie Revision wird zurückgewiesen.\n\nGründe\n\n${body}`;
    const decisions = [
      // § 536 once, and a provision the corpus does not hold (not counted).
      { ...decision, source_id: 'test-1', ecli: null, text: text('Die Miete ist nach § 536 Abs. 1 BGB gemindert. Eine Vorschrift § 9999 BGB gibt es nicht.') },
      // § 536 twice (one citing document: counted once) and § 543.
      { ...decision, source_id: 'test-2', ecli: null, text: text('Eine Minderung gemäß § 536 BGB scheidet aus. Die Kündigung nach § 543 BGB ist wirksam; § 536 BGB bleibt unberührt.') },
    ];
    await mkdir(path.join(corpus, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(corpus, 'documents', 'case_law', 'DE-Test.jsonl.gz'), gzipLines(decisions));
    await mkdir(path.join(corpus, 'documents', 'doctrine'), { recursive: true });
    const note = { ...guidance, source: 'DE/TestGuidance', source_id: 'note-1', country: 'DE', language: 'de', text: 'Der Mietvertrag verpflichtet nach § 535 BGB den Vermieter, die Mietsache zu überlassen.' };
    await writeFile(path.join(corpus, 'documents', 'doctrine', 'DE-TestGuidance.jsonl.gz'), gzipLines([note]));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'citation-counts-'));
  });

  afterAll(async () => {
    await rm(corpus, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts each citing decision and guidance document once per provision it cites', async () => {
    const counts = await countCitations(await listDocumentFiles(corpus), { logger });
    expect(Object.fromEntries(counts!)).toEqual({
      'DE/GesetzeImInternet/bgb/536': 2,
      'DE/GesetzeImInternet/bgb/543': 1,
      'DE/GesetzeImInternet/bgb/535': 1,
    });
  });

  it('keeps the counts of the files counted, and counts again only when they change', async () => {
    const files = await listDocumentFiles(corpus);
    const file = citationCountsFile(dataDir);
    const hashes = new Map(files.map((f) => [f.relativePath, `hash of ${f.relativePath}`]));
    expect(await loadCitationCounts(file)).toBeNull();
    expect(await updateCitationCounts(file, files, hashes, { logger })).toBe(true);
    expect((await loadCitationCounts(file))!.get('DE/GesetzeImInternet/bgb/536')).toBe(2);
    expect(await updateCitationCounts(file, files, hashes, { logger })).toBe(false);
    const changed = new Map(hashes).set(files[0].relativePath, 'another hash');
    expect(await updateCitationCounts(file, files, changed, { logger })).toBe(true);
    // An aborted count writes nothing and keeps the counts it had.
    const aborted = new AbortController();
    aborted.abort();
    expect(await updateCitationCounts(file, files, hashes, { logger, signal: aborted.signal })).toBeNull();
    expect(await updateCitationCounts(file, files, changed, { logger })).toBe(false);
  });

  it('reads an unreadable or foreign file as no counts', async () => {
    const file = path.join(dataDir, 'broken.json');
    await writeFile(file, '{"format":1,"counts":');
    expect(await loadCitationCounts(file)).toBeNull();
    await writeFile(file, JSON.stringify({ format: 99, corpus: 'x', counts: { a: 1 } }));
    expect(await loadCitationCounts(file)).toBeNull();
  });
});
