import { MAX_FILE_LINES, MAX_FUNCTION_LINES, measureSource } from './source-sizes.js';

/** `n` statement lines, to pad a body or a file. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('measureSource (the file and function size rules)', () => {
  it('passes a short file with short functions', () => {
    expect(measureSource('a.ts', 'export function f() {\n  return 1;\n}\n')).toEqual([]);
  });

  it('counts a function from its first to its last line, nested ones included, and names it', () => {
    const body = filler(MAX_FUNCTION_LINES - 1); // + the two brace lines = limit + 1
    const text = `export class Store {\n  load() {\n${body}\n  }\n}\nexport const build = () => {\n  const inner = function () {\n${body}\n  };\n};\n`;
    const found = measureSource('a.ts', text).map(({ name, lines, line, reason }) => ({ name, lines, line, reason }));
    const buildLine = 2 + (MAX_FUNCTION_LINES + 1) + 1; // after load() and the class's closing brace
    expect(found).toEqual([
      { name: 'Store.load', lines: MAX_FUNCTION_LINES + 1, line: 2, reason: null },
      { name: 'build', lines: MAX_FUNCTION_LINES + 3, line: buildLine, reason: null },
      { name: 'inner', lines: MAX_FUNCTION_LINES + 1, line: buildLine + 1, reason: null },
    ]);
  });

  it('exempts a function whose statement carries a "// size:" reason, and only that one', () => {
    const body = filler(MAX_FUNCTION_LINES);
    const text = `// size: a declarative table of routes\nexport function routes() {\n${body}\n}\nexport function other() {\n${body}\n}\n`;
    const found = measureSource('a.ts', text);
    expect(found.map((f) => [f.name, f.reason])).toEqual([
      ['routes', 'a declarative table of routes'],
      ['other', null],
    ]);
  });

  it('reports a long file, exempted only by a reason in its header', () => {
    const long = `${filler(MAX_FILE_LINES + 1)}\n`;
    expect(measureSource('a.ts', long)).toEqual([{ file: 'a.ts', line: 1, name: null, lines: MAX_FILE_LINES + 1, limit: MAX_FILE_LINES, reason: null }]);
    expect(measureSource('a.ts', `/** Aliases. */\n// size: data, one alias a line\n${long}`)[0]!.reason).toBe('data, one alias a line');
    // an empty marker is no reason
    expect(measureSource('a.ts', `// size:\n${long}`)[0]!.reason).toBeNull();
  });

  it('reads TSX', () => {
    const text = `export function Page() {\n  return (\n    <div>\n${filler(MAX_FUNCTION_LINES).replace(/const v\d+ = \d+;/g, '<p />')}\n    </div>\n  );\n}\n`;
    expect(measureSource('Page.tsx', text).map((f) => f.name)).toEqual(['Page']);
  });
});
