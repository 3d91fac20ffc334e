/** Citations found in running text and resolved strictly, over an index of real corpus records. */
import { readRecords } from '../../../../test/fixtures/corpus-slice.js';
import { referenceIndexOf } from '../../../../test/fixtures/reference-index.js';
import { findCitations, MAX_ANCHORS_TRIED } from './citations-in-text.js';
import type { ReferenceIndex } from './reference-index.js';

const DE_IDS = ['bgb', 'bgb/823', 'bgb/433'];
const FR_IDS = ['LEGITEXT000006070721', 'LEGITEXT000006070721/1240'];
const EU_IDS = ['32016R0679', '32016R0679/6', '32016R0679/17'];
const pick = (ids: string[]) => (r: Record<string, unknown>) => ids.includes(String(r.source_id));

let index: ReferenceIndex;

beforeAll(async () => {
  const records = [
    ...(await readRecords('legislation/DE-GesetzeImInternet.jsonl.gz', DE_IDS.length, pick(DE_IDS))),
    ...(await readRecords('legislation/FR-LegifranceCodes.jsonl.gz', FR_IDS.length, pick(FR_IDS))),
    ...(await readRecords('legislation/EU-EUR-Lex.jsonl.gz', EU_IDS.length, pick(EU_IDS))),
  ];
  index = await referenceIndexOf(records);
});

// No time budget here: what is found must not depend on how loaded the machine is (the budget has its own test).
const cited = (text: string) => findCitations(index, text, { budgetMs: Infinity }).map((c) => [text.slice(c.start, c.end), c.doc.source_id]);

describe('findCitations', () => {
  it('finds a provision cited in a sentence, with its extent', () => {
    expect(cited('Die Klägerin verlangt Schadensersatz gemäß § 823 Abs. 1 BGB wegen der Verletzung ihres Eigentums.')).toEqual([['§ 823 Abs. 1 BGB', 'bgb/823']]);
    expect(cited("Selon l'article 1240 du code civil, tout fait quelconque de l'homme oblige à réparer.")).toEqual([['article 1240 du code civil', 'LEGITEXT000006070721/1240']]);
  });

  it('finds every citation of a text in order, with sub-units and parentheses', () => {
    const text = 'Processing is lawful under Article 6(1)(c) GDPR, and the data subject may rely on Article 17 GDPR (right to erasure); see also Art. 433 BGB.';
    expect(cited(text)).toEqual([
      ['Article 6(1)(c) GDPR', '32016R0679/6'],
      ['Article 17 GDPR', '32016R0679/17'],
      ['Art. 433 BGB', 'bgb/433'],
    ]);
  });

  it('takes nothing doubtful: no act named, an act not in the index, an article the act lacks', () => {
    expect(cited('Under Article 6 the controller must act; § 823 applies too.')).toEqual([]);
    expect(cited('Article 5 of the Directive on unfair terms, Art. 12 UWG and § 9999 BGB.')).toEqual([]);
    expect(cited('The article was published in 2016 and cost 823 euros.')).toEqual([]);
  });

  it('stops at the asked number of citations', () => {
    expect(findCitations(index, '§ 823 BGB und § 433 BGB', { max: 1 })).toHaveLength(1);
  });
});

describe('the scan is bounded (it runs on the event loop of every search)', () => {
  /** `count` anchors that resolve to nothing, each followed by more words than a citation takes. */
  const unresolvable = (count: number) => Array.from({ length: count }, (_, i) => `§ ${9000 + i} ${'lorem '.repeat(13)}`).join('');
  const adversarial = '§ 1 Art. 2 '.repeat(400).slice(0, 4000);

  it('tries at most the anchor cap: a citation after it is not reached', () => {
    const unbounded = { budgetMs: Infinity };
    expect(findCitations(index, `${unresolvable(3)}§ 823 BGB`, { ...unbounded, maxAnchors: 4 })).toHaveLength(1);
    expect(findCitations(index, `${unresolvable(4)}§ 823 BGB`, { ...unbounded, maxAnchors: 4 })).toEqual([]);
    // The default cap, the same way.
    expect(findCitations(index, `${unresolvable(MAX_ANCHORS_TRIED - 1)}§ 823 BGB`, unbounded)).toHaveLength(1);
    expect(findCitations(index, `${unresolvable(MAX_ANCHORS_TRIED)}§ 823 BGB`, unbounded)).toEqual([]);
  });

  it('does not count anchors inside a citation already found', () => {
    // `§ 2` is a sub-unit of the first citation (`§ 823 § 2 BGB`), not a second anchor tried.
    const text = '§ 823 § 2 BGB und § 433 BGB';
    expect(findCitations(index, text, { budgetMs: Infinity, maxAnchors: 2 }).map((c) => [text.slice(c.start, c.end), c.doc.source_id])).toEqual([
      ['§ 823 § 2 BGB', 'bgb/823'],
      ['§ 433 BGB', 'bgb/433'],
    ]);
  });

  /** A clock that advances one millisecond each time it is read, counting its reads. */
  const tickingClock = () => {
    const clock = { reads: 0, now: () => clock.reads++ };
    return clock;
  };

  it('ends within its time budget on an adversarial query', () => {
    // Without a budget nor a cap, the adversarial query makes thousands of resolution attempts
    // (the clock is read before each one) ...
    const free = tickingClock();
    findCitations(index, adversarial, { maxAnchors: Infinity, budgetMs: Infinity, now: free.now });
    expect(free.reads).toBeGreaterThan(5_000);
    // ... with a 50 ms budget, every attempt after the deadline fails without resolving: the
    // clock is read a few more times (the attempts left for the anchor in progress), no more.
    const budgeted = tickingClock();
    findCitations(index, adversarial, { maxAnchors: Infinity, budgetMs: 50, now: budgeted.now });
    expect(budgeted.reads).toBeGreaterThanOrEqual(50);
    expect(budgeted.reads).toBeLessThan(50 + 2 * 12 * 2 + 2);
    // A spent budget finds nothing, a sufficient one everything.
    expect(findCitations(index, '§ 823 BGB und § 433 BGB', { budgetMs: 0, now: tickingClock().now })).toEqual([]);
    expect(findCitations(index, '§ 823 BGB und § 433 BGB', { budgetMs: 1_000, now: tickingClock().now })).toHaveLength(2);
  });
});
