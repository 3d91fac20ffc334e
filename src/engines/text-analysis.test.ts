import { analyzeDocumentText, analyzeQuery, analyzeQueryConcepts, resolveDocumentLanguage } from './text-analysis.js';
import { foldToken } from './text-folding.js';

const terms = (text: string, language: string | null) => analyzeDocumentText(text, language).split(' ').filter(Boolean);
/** Whether some query term occurs among the document terms. */
const matches = (query: string, docText: string, language: string | null, queryLanguage?: string) => {
  const doc = new Set(terms(docText, language));
  return analyzeQuery(query, { language: queryLanguage }).filter((t) => doc.has(t));
};

describe('folding and tokenisation', () => {
  it('lowercases, removes diacritics and expands special letters', () => {
    expect(foldToken('délai')).toEqual(['delai']);
    expect(foldToken('straße')).toEqual(['strasse']);
    expect(foldToken('œuvre')).toEqual(['oeuvre']);
    expect(foldToken('ﬁnance')).toEqual(['finance']);
    expect(terms('Délai ÉTÉ Größe', 'pl')).toEqual(['delai', 'ete', 'grosse']);
    // Without a language the text's own language is detected (German here) and stems apply.
    expect(terms('Die Größe der Straße', null)).toEqual(terms('Größe Straße', 'de'));
  });

  it('splits on non-alphanumerics and keeps alphanumeric tokens', () => {
    expect(terms('Article L1234-5 du règlement (UE) 2016/679', null)).toEqual(
      expect.arrayContaining(['l1234', '5', '2016', '679']),
    );
    expect(terms('ECLI:BE:GHCC:1990:40', null)).toEqual(['ecli', 'be', 'ghcc', '1990', '40']);
  });

  it('folds decomposed input like precomposed input', () => {
    expect(terms('De\u0301lai', null)).toEqual(terms('Délai', null));
  });

  it('indexes Han/Kana text as character bigrams', () => {
    expect(terms('損害賠償', null)).toEqual(['損害', '害賠', '賠償']);
    expect(analyzeQuery('損害賠償')).toEqual(expect.arrayContaining(['損害', '賠償']));
  });

  it('drops overlong tokens', () => {
    expect(terms(`ok ${'x'.repeat(60)}`, null)).toEqual(['ok']);
  });
});

describe('stemming and stopwords per language', () => {
  it('stems German, French, English, Italian, Spanish, Dutch and Portuguese words', () => {
    expect(terms('Verträge', 'de')).toEqual(terms('Vertrag', 'de'));
    expect(terms('contrats', 'fr')).toEqual(terms('contrat', 'fr'));
    expect(terms('contracts', 'en')).toEqual(terms('contract', 'en'));
    expect(terms('contratti', 'it')).toEqual(terms('contratto', 'it'));
    expect(terms('contratos', 'es')).toEqual(terms('contrato', 'es'));
    expect(terms('overeenkomsten', 'nl')).toEqual(terms('overeenkomst', 'nl'));
    expect(terms('contratos', 'pt')).toEqual(terms('contrato', 'pt'));
    // Other Snowball languages work too.
    expect(terms('avtalen', 'sv')).toEqual(terms('avtal', 'sv'));
  });

  it('drops stopwords of the document language only', () => {
    expect(terms('Der Vertrag und die Haftung', 'de')).toEqual(terms('Vertrag Haftung', 'de'));
    expect(terms("l'article de la loi", 'fr')).toEqual(terms('article loi', 'fr'));
    expect(terms('the liability of the party', 'en')).toEqual(terms('liability party', 'en'));
    // "die" is no stopword for an English document.
    expect(terms('die', 'en')).toEqual(['die']);
  });

  it('folds consistently before stemming', () => {
    expect(terms('Délais', 'fr')).toEqual(terms('delais', 'fr'));
    expect(terms('Schäden', 'de')).toEqual(terms('Schaden', 'de'));
  });

  it('leaves languages without a stemmer folded but unstemmed', () => {
    expect(terms('Umowy Sądów', 'pl')).toEqual(['umowy', 'sadow']);
  });
});

describe('the language a document is analysed in', () => {
  it('is its own when given, else the detected one', () => {
    expect(resolveDocumentLanguage('anything', 'it')).toBe('it');
    expect(resolveDocumentLanguage("La Cour rejette le pourvoi et condamne la société aux dépens de l'instance.", null)).toBe('fr');
  });
});

describe('queries match documents', () => {
  it('returns distinct terms and drops stopwords', () => {
    const q = analyzeQuery('the liability of the liability');
    expect(new Set(q).size).toBe(q.length);
    expect(q).not.toContain('the');
    expect(q).not.toContain('of');
  });

  it('keeps a query made only of stopwords', () => {
    expect(analyzeQuery('the')).toEqual(['the']);
  });

  it('matches a French query to French-stemmed text without knowing the query language', () => {
    expect(matches('délai de paiement des factures', 'Les délais de paiement sont fixés par contrat.', 'fr')).toEqual(
      expect.arrayContaining(terms('délais paiement', 'fr')),
    );
    expect(matches('responsabilité contractuelle', 'La responsabilité des parties contractantes', 'fr').length).toBeGreaterThan(0);
    expect(matches('contrats de travail', 'Le contrat de travail est suspendu', 'fr').length).toBeGreaterThan(0);
  });

  it('matches German inflections and compounds by their exact stem', () => {
    expect(matches('Schadensersatz', 'Der Schuldner ist zum Schadensersatz verpflichtet', 'de').length).toBeGreaterThan(0);
    expect(matches('Schadensersatzes', 'Der Anspruch auf Schadensersatz verjährt', 'de').length).toBeGreaterThan(0);
    expect(matches('Verträge', 'Ein Vertrag wird geschlossen', 'de').length).toBeGreaterThan(0);
  });

  it('matches English, Italian and Spanish queries against their documents', () => {
    expect(matches('processing of personal data', 'Personal data shall be processed lawfully', 'en').length).toBeGreaterThanOrEqual(2);
    expect(matches('responsabilità civile', 'La responsabilità civile del debitore', 'it').length).toBeGreaterThan(0);
    expect(matches('protección de datos personales', 'La protección de los datos personales', 'es').length).toBeGreaterThan(0);
  });

  it('matches unstemmed documents (unknown language) through the folded surface form', () => {
    expect(matches('Sądów', 'wyrok sądów', 'pl')).toEqual(['sadow']);
  });

  it('uses the given language only', () => {
    expect(analyzeQuery('contrats', { language: 'fr' })).toEqual(expect.arrayContaining(['contrats', 'contrat']));
  });

  it("covers a German question's noun with the statute's verb (Snowball keeps -t and -et), without scoring it twice", () => {
    // The statute says "verletzt", "kündigt"; the question says "Verletzung", "Kündigung".
    const concept = (query: string) => analyzeQueryConcepts(query, { language: 'de' }).concepts[0];
    expect(concept('Verletzung')).toEqual(expect.arrayContaining(['verletz', 'verletzt']));
    expect(concept('Kündigung')).toEqual(expect.arrayContaining(['kundig', 'kundigt']));
    expect(concept('verpflichtet')).toEqual(expect.arrayContaining(['verpflichtet', 'verpflicht']));
    expect(terms('Wer das Eigentum eines anderen verletzt', 'de')).toContain(concept('Verletzung').find((t) => t === 'verletzt'));
    // The verb forms judge coverage only: the scored terms stay the stems.
    expect(analyzeQuery('Verletzung', { language: 'de' })).not.toContain('verletzt');
    // Short stems are left alone ("Wert" is not "wer"), and other languages too.
    expect(concept('Wert')).toEqual(['wert']);
    expect(analyzeQueryConcepts('lent', { language: 'en' }).concepts).toEqual([['lent']]);
  });
});

describe('query concepts', () => {
  it('groups the terms by the query word they stand for', () => {
    const { terms, concepts } = analyzeQueryConcepts('Schadensersatz bei Verletzung des Eigentums', { language: 'de' });
    expect(terms).toEqual(analyzeQuery('Schadensersatz bei Verletzung des Eigentums', { language: 'de' }));
    expect(concepts).toHaveLength(3);
    expect(concepts).toContainEqual(expect.arrayContaining(['verletzung', 'verletz', 'verletzt']));
    expect(concepts).toContainEqual(expect.arrayContaining(['eigentums', 'eigentum']));
    expect(concepts.flat()).toEqual(expect.arrayContaining(terms));
  });

  it('counts two forms of one word once, and none for stop words only', () => {
    expect(analyzeQueryConcepts('contrat contrats', { language: 'fr' }).concepts).toHaveLength(1);
    expect(analyzeQueryConcepts('the of')).toEqual({ terms: ['the', 'of'], concepts: [] });
  });
});
