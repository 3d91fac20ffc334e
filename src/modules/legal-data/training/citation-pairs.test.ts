import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipLines, readRecords, writeCorpusSlice } from '../../../../test/fixtures/corpus-slice.js';
import { citationContext } from './citation-pairs.js';
import { buildCorpusPairs } from './training-pairs.js';

describe('citationContext', () => {
  it('takes the sentence around the citation without the citation itself', () => {
    const text = 'Die Klage ist zulässig. Der Mieter darf die Miete mindern, weil die Heizung ausfiel, § 536 Abs. 1 BGB. Die Kosten trägt der Beklagte.';
    const start = text.indexOf('§ 536');
    const end = start + '§ 536 Abs. 1 BGB'.length;
    expect(citationContext(text, start, end)).toBe('Der Mieter darf die Miete mindern, weil die Heizung ausfiel, .');
  });

  it('gives nothing when little more than the citation is left', () => {
    const text = 'Vgl. § 536 BGB.';
    expect(citationContext(text, 5, 14)).toBeNull();
  });
});

describe('citation-context pairs', () => {
  let dir: string;
  let article536: string;

  beforeAll(async () => {
    const keep = new Set(['bgb', 'bgb/535', 'bgb/536', 'bgb/543']);
    ({ dir } = await writeCorpusSlice([{ file: 'legislation/DE-GesetzeImInternet.jsonl.gz', lines: keep.size, keep: (r) => keep.has(String(r.source_id)) }]));
    const [decision] = await readRecords('case_law/DE-BGH.jsonl.gz', 1);
    const text = (body: string) => `Tenor\n\nDie Revision wird zurückgewiesen.\n\nGründe\n\n${body}`;
    const decisions = [
      {
        ...decision,
        source_id: 'test-1',
        ecli: null,
        text: text(
          'Fällt die Heizung einer Wohnung im Winter aus, ist die Miete nach § 536 Abs. 1 BGB gemindert, solange der Mangel besteht. ' +
            'Eine Vorschrift § 9999 BGB gibt es nicht, daher wird hier nichts gepaart und kein Satz übernommen.',
        ),
      },
      // The same article cited again by another decision: a second context; and a third time
      // further on in that decision (kept only with more than one context per citing document).
      {
        ...decision,
        source_id: 'test-2',
        ecli: null,
        text: text(
          'Der Vermieter haftet nicht, wenn der Mieter den Schimmel selbst verursacht hat; eine Minderung gemäß § 536 BGB scheidet dann aus. ' +
            'Auch der Lärm der Baustelle nebenan mindert die Miete nach § 536 BGB nur, wenn er die Wohnung erheblich beeinträchtigt.',
        ),
      },
    ];
    await mkdir(path.join(dir, 'documents', 'case_law'), { recursive: true });
    await writeFile(path.join(dir, 'documents', 'case_law', 'DE-Test.jsonl.gz'), gzipLines(decisions));
    const [record] = await readRecords('legislation/DE-GesetzeImInternet.jsonl.gz', 1, (r) => r.source_id === 'bgb/536');
    article536 = String(record.text);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('pairs the sentence of a decision that cites an article with that article, citation removed', async () => {
    const corpus = await buildCorpusPairs(dir, { seed: 1, holdOutEvery: 1_000_000 });
    const citations = corpus.train.filter((p) => p.kind === 'citation');
    expect(citations.map((p) => p.anchor)).toEqual([
      'Fällt die Heizung einer Wohnung im Winter aus, ist die Miete nach gemindert, solange der Mangel besteht.',
      'Der Vermieter haftet nicht, wenn der Mieter den Schimmel selbst verursacht hat; eine Minderung gemäß scheidet dann aus.',
    ]);
    for (const pair of citations) {
      // The cited article's text without its "§ 536 …" heading line, as its header pair has it.
      expect(article536).toContain(pair.passage.slice(0, 80));
      expect(pair.group).toBe('DE/GesetzeImInternet|bgb');
    }
    // Its header pair and its citation pairs come from one document: never each other's negatives.
    const header = corpus.train.find((p) => p.kind === 'header' && p.anchor.includes('Mietminderung'));
    expect(new Set(citations.map((p) => p.doc))).toEqual(new Set([header!.doc]));
  });

  it('keeps the contexts of an article with the article when it is held out', async () => {
    const corpus = await buildCorpusPairs(dir, { seed: 1, holdOutEvery: 1 });
    expect(corpus.train.filter((p) => p.kind === 'citation')).toHaveLength(0);
    expect(corpus.heldOut.filter((p) => p.kind === 'citation')).toHaveLength(2);
  });

  it('keeps more than one context of an article per citing document, and caps the contexts of an article, when told', async () => {
    const contexts = async (citationLimits: { perDocumentArticle?: number; perArticle?: number }) =>
      (await buildCorpusPairs(dir, { seed: 1, holdOutEvery: 1_000_000, citationLimits })).train.filter((p) => p.kind === 'citation').map((p) => p.anchor);
    const twoPerDocument = await contexts({ perDocumentArticle: 2 });
    expect(twoPerDocument).toHaveLength(3);
    expect(twoPerDocument[2]).toBe('Auch der Lärm der Baustelle nebenan mindert die Miete nach nur, wenn er die Wohnung erheblich beeinträchtigt.');
    expect(await contexts({ perDocumentArticle: 2, perArticle: 2 })).toEqual(twoPerDocument.slice(0, 2));
  });

  it('can be turned off', async () => {
    const corpus = await buildCorpusPairs(dir, { seed: 1, holdOutEvery: 1_000_000, citations: false });
    expect(corpus.train.filter((p) => p.kind === 'citation')).toHaveLength(0);
  });
});
