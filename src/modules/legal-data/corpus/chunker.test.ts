import { chunkText } from './chunker.js';

describe('chunkText', () => {
  it('keeps a short text as one passage', () => {
    expect(chunkText('§ 823 Schadensersatzpflicht\n\n(1) Wer vorsätzlich …')).toEqual(['§ 823 Schadensersatzpflicht\n\n(1) Wer vorsätzlich …']);
  });

  it('cuts long texts at paragraph boundaries, never above the maximum, losing no words', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ` + 'lorem ipsum dolor sit amet. '.repeat(8 + (i % 5)));
    const text = paragraphs.join('\n\n');
    const chunks = chunkText(text, { target: 1200, max: 2000 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(2000);
    expect(chunks.join(' ').split(/\s+/).length).toBe(text.trim().split(/\s+/).length);
    expect(chunks[1].startsWith('Paragraph')).toBe(true);
  });

  it('splits one giant paragraph at sentence ends', () => {
    const text = 'Der Schuldner haftet. '.repeat(400);
    const chunks = chunkText(text, { target: 1200, max: 2000 });
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(2000);
      expect(c.endsWith('.')).toBe(true);
    }
  });
});
