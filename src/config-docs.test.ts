/**
 * docs/configuration.md is generated from the configuration schema: this test fails when a
 * variable was added, removed or described anew in src/config.ts without regenerating it.
 */
import { readFileSync } from 'node:fs';
import { envSchema } from './config.js';
import { CONFIG_DOCS_FILE, renderConfigDocs } from './config-docs.js';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` generates from src/config.ts', () => {
    const committed = readFileSync(CONFIG_DOCS_FILE, 'utf8');
    const generated = renderConfigDocs();
    if (committed !== generated) {
      throw new Error(`${CONFIG_DOCS_FILE} differs from the configuration schema in src/config.ts: run \`npm run docs:config\` and commit the result`);
    }
  });

  it('has one row, with a meaning, for every variable the schema reads', () => {
    const rows = renderConfigDocs().split('\n').filter((line) => line.startsWith('| `'));
    const names = rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]);
    expect(names).toEqual(Object.keys(envSchema.shape));
    for (const row of rows) expect(row.split(' | ').at(-1)!.length).toBeGreaterThan(5);
  });

  it('takes each default from the schema itself', () => {
    const row = (name: string) => renderConfigDocs().split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row('PORT')).toMatch(/^\| `PORT` \| `8000` \|/);
    expect(row('GRAPHQL_MAX_DEPTH')).toMatch(/\| `12` \|/);
    expect(row('DATABASE_URL')).toMatch(/^\| `DATABASE_URL` \| unset \|/);
  });

  it("gives in the README's security summary each limit's default as the schema does", () => {
    const readme = readFileSync('README.md', 'utf8');
    const summary = readme.slice(readme.indexOf('**Security.**'), readme.indexOf('Proving an address'));
    const pairs = [...summary.matchAll(/`([A-Z0-9_]+)`=([0-9a-z]+)/g)].map((m) => [m[1]!, m[2]!]);
    expect(pairs.length).toBeGreaterThan(25);
    for (const [name, value] of pairs) {
      const row = renderConfigDocs().split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect({ name, row: row?.includes(`| \`${value}\` |`) }).toEqual({ name, row: true });
    }
  });
});
