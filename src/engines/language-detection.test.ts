import { detectDocumentLanguage, normalizeLanguage, queryLanguages } from './language-detection.js';

describe('language tags', () => {
  it('normalises language tags', () => {
    expect(normalizeLanguage('DE')).toBe('de');
    expect(normalizeLanguage('fr-BE')).toBe('fr');
    expect(normalizeLanguage('deu')).toBe('de');
    expect(normalizeLanguage('')).toBeNull();
    expect(normalizeLanguage(null)).toBeNull();
  });
});

describe('language detection', () => {
  it('detects the language of a document without one', () => {
    expect(detectDocumentLanguage('Die österreichische Finanzmarktaufsicht hat den Bereich auf ihrer Webseite für die Versicherungen aktualisiert.')).toBe('de');
    expect(detectDocumentLanguage("La Cour rejette le pourvoi et condamne la société aux dépens de l'instance.")).toBe('fr');
    expect(detectDocumentLanguage('The court dismissed the appeal and ordered the company to pay the costs of the proceedings.')).toBe('en');
    expect(detectDocumentLanguage('xyz 123')).toBeNull();
  });

  it('picks one language for a clear query and several for an ambiguous one', () => {
    expect(queryLanguages('the right to be forgotten')).toEqual(['en']);
    expect(queryLanguages('Kündigung des Mietvertrags')).toEqual(['de']);
    expect(queryLanguages('délais de paiement')).toEqual(['fr']);
    expect(queryLanguages('contrat de travail').length).toBeGreaterThan(1);
    expect(queryLanguages('contrat de travail')).toContain('fr');
    expect(queryLanguages('GDPR')).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'it', 'es', 'nl', 'pt']));
    expect(queryLanguages('anything', 'es')).toEqual(['es']);
  });
});
