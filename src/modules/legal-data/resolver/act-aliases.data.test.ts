import { ACT_ALIASES } from './act-aliases.data.js';

describe('the act alias table', () => {
  it('gives every alias one target: a source id or an exact title, never both', () => {
    const both = ACT_ALIASES.filter((a) => (a.sourceId === undefined) === (a.title === undefined));
    expect(both).toEqual([]);
  });

  it("names a source of the alias's own country, and no alias with stray spaces", () => {
    expect(ACT_ALIASES.filter((a) => !a.source.startsWith(`${a.country}/`))).toEqual([]);
    expect(ACT_ALIASES.filter((a) => a.alias === '' || a.alias.trim() !== a.alias)).toEqual([]);
  });

  it('never points one alias (per country and language) at two different acts', () => {
    const targets = new Map<string, Set<string>>();
    for (const a of ACT_ALIASES) {
      const key = `${a.country}|${a.language ?? ''}|${a.alias.toLowerCase()}`;
      targets.set(key, (targets.get(key) ?? new Set()).add(`${a.source}|${a.sourceId ?? a.title}`));
    }
    expect([...targets].filter(([, t]) => t.size > 1).map(([key]) => key)).toEqual([]);
  });
});
