import { buildSnippet } from './snippet.js';

describe('buildSnippet', () => {
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20);
  const passage = `${filler}Wer vorsätzlich oder fahrlässig das Leben, den Körper, die Gesundheit, das Eigentum eines anderen widerrechtlich verletzt, ist zum Schadensersatz verpflichtet. ${filler}`;

  it('shows the passage where the query words are, not the first characters', () => {
    const snippet = buildSnippet(passage, 'Schadensersatz Eigentum verletzt', 200);
    expect(snippet).toMatch(/Eigentum/);
    expect(snippet).toMatch(/Schadensersatz/);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(203);
  });

  it('matches across accents and inflection', () => {
    const text = `${filler}La responsabilité délictuelle suppose une faute. ${filler}`;
    expect(buildSnippet(text, 'responsabilite delictuelles', 150)).toMatch(/responsabilité délictuelle/);
  });

  it('falls back to the beginning when nothing matches', () => {
    expect(buildSnippet(passage, 'xyzzy', 100).startsWith('Lorem ipsum')).toBe(true);
  });

  it('returns short passages whole', () => {
    expect(buildSnippet('Art. 1 Die Würde des Menschen ist unantastbar.', 'Würde')).toBe('Art. 1 Die Würde des Menschen ist unantastbar.');
  });
});
