import { CompoundVocabulary, VocabularyCounter, compoundLanguage } from './compounds.js';
import { analyzeDocumentText, analyzeQuery, analyzeQueryConcepts } from './text-analysis.js';
import { foldedWords } from './text-folding.js';

/** A vocabulary from passages, as the engine gathers it (counts = passages that use a word). */
function vocabulary(passages: [string, string][]): CompoundVocabulary {
  const counter = new VocabularyCounter();
  for (const [language, text] of passages) counter.add(foldedWords(text), language);
  return counter.finish(passages.length);
}

const repeat = (n: number, language: string, text: string): [string, string][] => Array.from({ length: n }, () => [language, text]);

const GERMAN = vocabulary([
  ...repeat(6, 'de', 'Der Schaden ist zu ersetzen. Ersatz des Schadens.'),
  ...repeat(4, 'de', 'Die Verletzung des Körpers oder der Gesundheit'),
  ...repeat(5, 'de', 'Das Eigentum an einer Sache; der Monat; die Miete'),
  ...repeat(3, 'de', 'Die Eigentumsverletzung ist rechtswidrig.'),
  ...repeat(3, 'de', 'Die Schadensersatzpflicht tritt ein.'),
  ...repeat(9, 'de', 'Der Verbraucher hat ein Widerrufsrecht.'),
  ...repeat(3, 'de', 'ein Raucher raucht'),
  ...repeat(4, 'de', 'das Verb und die Pflicht zur Leistung'),
  ...repeat(3, 'nl', 'De arbeid en de overeenkomst; de arbeidsovereenkomst.'),
  ...repeat(5, 'en', 'Damage compensation is owed for the breach.'),
]);

describe('compound splitting learned from the corpus vocabulary', () => {
  it('splits a compound into corpus words at German linking elements (-s-, -es-, -n-, -en-, -e-)', () => {
    expect(GERMAN.split('schadensersatz', 'de')).toEqual(['schaden', 'ersatz']); // -s-
    expect(GERMAN.split('monatsmiete', 'de')).toEqual(['monat', 'miete']); // -s-
    expect(GERMAN.split('eigentumspflicht', 'de')).toEqual(['eigentum', 'pflicht']);
    expect(GERMAN.split('schadenersatz', 'de')).toEqual(['schaden', 'ersatz']); // no linking element
    // three parts
    expect(GERMAN.split('monatsmieteneigentum', 'de')).toEqual(['monat', 'miete', 'eigentum']); // -s-, -n-
  });

  it('keeps words that are more common whole than their parts, and words of no corpus parts', () => {
    // "verbraucher" (9 passages) is not verb (4) + raucher (3)
    expect(GERMAN.split('verbraucher', 'de')).toBeNull();
    expect(GERMAN.split('widerrufsrecht', 'de')).toBeNull(); // "widerruf" and "recht" are no corpus words here
    expect(GERMAN.split('ersatz', 'de')).toBeNull(); // too short to be a compound
  });

  it('never cuts off a stop word as a part', () => {
    const v = vocabulary([...repeat(5, 'de', 'unter dem Halt der Pflicht'), ...repeat(3, 'de', 'Unterhaltspflicht')]);
    expect(v.split('unterhaltspflicht', 'de')).toEqual(['unter', 'halt', 'pflicht']);
    expect(v.split('unterhaltspflicht', 'de', (w) => w === 'unter')).toBeNull();
  });

  it('joins two neighbouring words into the compound the corpus uses, in either order', () => {
    expect(GERMAN.join('verletzung', 'eigentums', 'de')).toBe('eigentumsverletzung');
    expect(GERMAN.join('eigentum', 'verletzung', 'de')).toBe('eigentumsverletzung');
    expect(GERMAN.join('ersatz', 'schadens', 'de')).toBeNull(); // "schadensersatz" is no corpus word here
    expect(GERMAN.join('miete', 'monat', 'de')).toBeNull();
  });

  it('serves Dutch with its own linking elements and vocabulary, and no other language', () => {
    expect(GERMAN.split('arbeidsovereenkomst', 'nl')).toBeNull(); // more common whole (3) than its parts (3, 3)? no: equal, kept
    const dutch = vocabulary([...repeat(8, 'nl', 'de arbeid en de overeenkomst'), ...repeat(3, 'nl', 'de arbeidsovereenkomst')]);
    expect(dutch.split('arbeidsovereenkomst', 'nl')).toEqual(['arbeid', 'overeenkomst']);
    expect(dutch.split('arbeidsovereenkomst', 'de')).toBeNull();
    expect(GERMAN.split('damagecompensation', 'en')).toBeNull();
    expect(compoundLanguage('lb')).toBe('de');
    expect(compoundLanguage('fr')).toBeNull();
  });

  it('gives the pieces of a compound: its parts and (on request) the neighbouring parts that are corpus words, as the word spells them', () => {
    const v = vocabulary([
      ...repeat(6, 'de', 'der Schaden; der Ersatz; die Pflicht'),
      ...repeat(3, 'de', 'der Schadensersatz ist zu leisten'),
    ]);
    expect(v.split('schadensersatzpflicht', 'de')).toEqual(['schaden', 'ersatz', 'pflicht']);
    // "schadensersatz" (with its linking -s-) is a corpus word, "ersatzpflicht" is none here
    expect(v.pieces('schadensersatzpflicht', 'de', () => false, true)).toEqual(['schaden', 'ersatz', 'pflicht', 'schadensersatz']);
    // by default the parts only (they measured better)
    expect(v.pieces('schadensersatzpflicht', 'de')).toEqual(['schaden', 'ersatz', 'pflicht']);
    expect(v.pieces('schadensersatz', 'de')).toEqual(['schaden', 'ersatz']);
    expect(v.pieces('pflicht', 'de')).toBeNull();
    expect(v.pieces('schadensersatzpflicht', 'en')).toBeNull();
  });

  it('splits the compounds of a document in a compounding language at index time (the word stays)', () => {
    const v = vocabulary([
      ...repeat(6, 'de', 'der Schaden; der Ersatz; die Pflicht'),
      ...repeat(3, 'de', 'der Schadensersatz ist zu leisten'),
    ]);
    const plain = analyzeDocumentText('Schadensersatzpflicht des Schuldners', 'de').split(' ');
    const split = analyzeDocumentText('Schadensersatzpflicht des Schuldners', 'de', { compounds: v }).split(' ');
    expect(plain).toEqual(['schadensersatzpflicht', 'schuldn']);
    // the parts' stems follow the compound: the query word's parts meet them
    expect(split).toEqual(['schadensersatzpflicht', 'schad', 'ersatz', 'pflicht', 'schuldn']);
    const query = analyzeQuery('Schadensersatz', { language: 'de', compounds: v });
    expect(query).toEqual(expect.arrayContaining(['schad', 'ersatz']));
    expect(plain.filter((t) => query.includes(t))).toEqual([]);
    // other languages and unknown words are left alone
    expect(analyzeDocumentText('Schadensersatzpflicht', 'fr', { compounds: v })).toBe(analyzeDocumentText('Schadensersatzpflicht', 'fr'));
    expect(analyzeDocumentText('Mietvertrag', 'de', { compounds: v })).toBe('mietvertrag');
    // memoised per word: the same answer the second time
    expect(analyzeDocumentText('Schadensersatzpflicht des Schuldners', 'de', { compounds: v }).split(' ')).toEqual(split);
  });

  it('survives a round trip through its stored form, with its origin', () => {
    const again = CompoundVocabulary.fromJSON(JSON.parse(JSON.stringify(GERMAN.toJSON())))!;
    expect(again.split('schadensersatz', 'de')).toEqual(['schaden', 'ersatz']);
    expect(again.sizes()).toEqual(GERMAN.sizes());
    expect(again.origin).toBe('index');
    const counter = new VocabularyCounter();
    counter.add(['schaden'], 'de');
    expect(CompoundVocabulary.fromJSON(JSON.parse(JSON.stringify(counter.finish(1, 'corpus').toJSON())))!.origin).toBe('corpus');
    expect(CompoundVocabulary.fromJSON({ version: 99 } as never)).toBeNull();
  });

  it('adds the parts and joined compounds to a German query (stemmed), never to another language', () => {
    const plain = analyzeQuery('Schadensersatz bei Verletzung des Eigentums', { language: 'de' });
    const terms = analyzeQuery('Schadensersatz bei Verletzung des Eigentums', { language: 'de', compounds: GERMAN });
    expect(plain).not.toContain('ersatz');
    expect(terms).toEqual(expect.arrayContaining([...plain, 'schad', 'ersatz', 'eigentumsverletz']));
    expect(analyzeQuery('damage compensation', { language: 'en', compounds: GERMAN })).toEqual(analyzeQuery('damage compensation', { language: 'en' }));
  });

  it("counts a compound's parts in its word's concept, and a joined compound in both words'", () => {
    const { concepts } = analyzeQueryConcepts('Schadensersatz bei Verletzung des Eigentums', { language: 'de', compounds: GERMAN });
    expect(concepts).toHaveLength(3);
    const [damages, injury, property] = ['schadensersatz', 'verletzung', 'eigentums'].map((word) => concepts.find((c) => c.includes(word))!);
    expect(damages).toEqual(expect.arrayContaining(['schad', 'ersatz']));
    expect(injury).toContain('eigentumsverletz');
    expect(property).toContain('eigentumsverletz');
    expect(property).not.toContain('schad');
  });
});
