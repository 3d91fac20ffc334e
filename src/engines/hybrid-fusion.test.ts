import { authorityBoost, fuseHybrid } from './hybrid-fusion.js';
import type { DocumentHit } from './search-engine.js';

const hit = (docId: string, score: number, passage = `${docId} passage`): DocumentHit => ({ docId, score, passage });

const keyword = [hit('k1', 12.5, 'kw k1'), hit('both', 8), hit('k2', 8), hit('k3', 1.2)];
const semantic = [hit('s1', 0.91), hit('both', 0.85, 'sem both'), hit('s2', 0.4), hit('neg1', -0.05), hit('neg2', -0.3)];

describe('fuseHybrid', () => {
  it('alpha = 0 reproduces the keyword ranking exactly', () => {
    const fused = fuseHybrid(keyword, semantic, 0, 100);
    expect(fused.map((h) => h.docId)).toEqual(keyword.map((h) => h.docId));
    expect(fused[0].score).toBe(1);
  });

  it('alpha = 1 reproduces the semantic ranking exactly, even when clamping flattens scores', () => {
    const fused = fuseHybrid(keyword, semantic, 1, 100);
    expect(fused.map((h) => h.docId)).toEqual(semantic.map((h) => h.docId));
    expect(fused.find((h) => h.docId === 'neg1')!.score).toBe(0);
  });

  it('keeps leg order for equal keyword scores (ties by rank, then docId)', () => {
    const ties = [hit('b', 5), hit('a', 5), hit('c', 5)];
    expect(fuseHybrid(ties, [], 0, 10).map((h) => h.docId)).toEqual(['b', 'a', 'c']);
    // Same fused score and no rank difference: docId decides.
    const fused = fuseHybrid([hit('y', 4)], [hit('x', 1)], 0.5, 10);
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['x', 0.5],
      ['y', 0.5],
    ]);
  });

  it('gives scores in [0, 1] that mix both legs, 0 for a missing leg', () => {
    const fused = fuseHybrid(keyword, semantic, 0.5, 100);
    for (const h of fused) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
      expect(h.score).toBeCloseTo(0.5 * h.semanticScore + 0.5 * h.keywordScore, 12);
    }
    const both = fused.find((h) => h.docId === 'both')!;
    expect(both.keywordScore).toBeCloseTo(8 / 12.5, 12);
    expect(both.semanticScore).toBeCloseTo(0.85, 12);
    expect(fused[0].docId).toBe('both');
    const k1 = fused.find((h) => h.docId === 'k1')!;
    expect(k1.semanticScore).toBe(0);
    expect(k1.keywordScore).toBe(1);
    const s1 = fused.find((h) => h.docId === 's1')!;
    expect(s1.keywordScore).toBe(0);
    expect(new Set(fused.map((h) => h.docId)).size).toBe(8);
  });

  it('takes the passage from the keyword leg when present', () => {
    const fused = fuseHybrid(keyword, semantic, 0.5, 100);
    expect(fused.find((h) => h.docId === 'both')!.passage).toBe('both passage');
    expect(fused.find((h) => h.docId === 's1')!.passage).toBe('s1 passage');
    expect(fused.find((h) => h.docId === 'k1')!.passage).toBe('kw k1');
  });

  it('honours the limit, handles empty legs and is deterministic', () => {
    expect(fuseHybrid(keyword, semantic, 0.3, 3)).toHaveLength(3);
    expect(fuseHybrid([], [], 0.5, 10)).toEqual([]);
    expect(fuseHybrid(keyword, [], 0.7, 10).map((h) => h.docId)).toEqual(keyword.map((h) => h.docId));
    expect(fuseHybrid(keyword, semantic, 0.42, 10)).toEqual(fuseHybrid(keyword, semantic, 0.42, 10));
    expect(fuseHybrid(keyword, semantic, 0.5, 0)).toEqual([]);
  });

  it('produces scores comparable across queries (absolute semantic scale)', () => {
    const strong = fuseHybrid([hit('a', 3)], [hit('a', 0.9)], 0.5, 1)[0].score;
    const weak = fuseHybrid([hit('a', 30)], [hit('a', 0.2)], 0.5, 1)[0].score;
    expect(strong).toBeGreaterThan(weak);
  });

  it("rescales cosines with the model's own scale, so alpha weighs both legs fully", () => {
    const scale = { low: 0.2, high: 0.7 };
    // A static model's cosines sit in a narrow band: raw, the vector leg could never outweigh BM25.
    const kw = [hit('k', 10), hit('s', 2)];
    const sem = [hit('s', 0.68), hit('k', 0.45)];
    const raw = fuseHybrid(kw, sem, 0.7, 10);
    const scaled = fuseHybrid(kw, sem, 0.7, 10, scale);
    expect(raw[0].docId).toBe('k');
    expect(scaled[0].docId).toBe('s');
    expect(scaled.find((h) => h.docId === 's')!.semanticScore).toBeCloseTo((0.68 - 0.2) / 0.5, 12);
    expect(scaled.find((h) => h.docId === 'k')!.semanticScore).toBeCloseTo((0.45 - 0.2) / 0.5, 12);
    // Below the unrelated level is 0, above the strong level is 1.
    expect(fuseHybrid([], [hit('y', 0.9), hit('x', 0.1)], 1, 10, scale).map((h) => h.semanticScore)).toEqual([1, 0]);
    // alpha = 1 and 0 still reproduce each leg exactly.
    expect(fuseHybrid(kw, sem, 1, 10, scale).map((h) => h.docId)).toEqual(['s', 'k']);
    expect(fuseHybrid(kw, sem, 0, 10, scale).map((h) => h.docId)).toEqual(['k', 's']);
  });

  it('keeps the fused score comparable across queries on a model scale', () => {
    const scale = { low: 0.2, high: 0.7 };
    const strong = fuseHybrid([hit('a', 3)], [hit('a', 0.65)], 0.7, 1, scale)[0].score;
    const weak = fuseHybrid([hit('a', 30)], [hit('a', 0.3)], 0.7, 1, scale)[0].score;
    expect(strong).toBeGreaterThan(weak);
  });

  describe('section context', () => {
    // a1 and a2 share a section; b1 is alone in its section; c is in none (a decision, say).
    const sectionOf = new Map([
      ['a1', 'act | Part 1'],
      ['a2', 'act | Part 1'],
      ['b1', 'act | Part 2'],
    ]);
    const legHits = [hit('b1', 10), hit('c', 10), hit('a1', 9), hit('a2', 8)];

    it('lifts an article whose section the leg found too, keeps documents outside sections as they are', () => {
      const fused = fuseHybrid(legHits, [], 0, 10, undefined, { sectionOf, weight: 0.3 });
      expect(fused.map((h) => h.docId)).toEqual(['c', 'a1', 'a2', 'b1']);
      const score = (id: string) => fused.find((h) => h.docId === id)!.keywordScore;
      expect(score('c')).toBe(1);
      expect(score('a1')).toBeCloseTo(0.7 * 0.9 + 0.3 * 0.8, 12);
      expect(score('a2')).toBeCloseTo(0.7 * 0.8 + 0.3 * 0.9, 12);
      expect(score('b1')).toBeCloseTo(0.7, 12);
    });

    it('applies to each leg separately, and weight 0 changes nothing', () => {
      const semanticLeg = [hit('b1', 0.9), hit('a2', 0.5)];
      const fused = fuseHybrid([], semanticLeg, 1, 10, undefined, { sectionOf, weight: 0.3 });
      // a2's sibling a1 was found by the keyword leg only: no context in the semantic leg.
      expect(fused.map((h) => [h.docId, h.semanticScore])).toEqual([
        ['b1', 0.7 * 0.9],
        ['a2', 0.7 * 0.5],
      ]);
      expect(fuseHybrid(legHits, semanticLeg, 0.5, 10, undefined, { sectionOf, weight: 0 })).toEqual(fuseHybrid(legHits, semanticLeg, 0.5, 10));
    });
  });

  it('parts reproduce every fused score from the raw leg scores, with section context', () => {
    const scale = { low: 0.2, high: 0.8 };
    const sectionOf = new Map([['k1', 'act > s1'], ['both', 'act > s1'], ['s2', 'act > s2']]);
    for (const alpha of [0, 0.3, 0.7, 1]) {
      const fused = fuseHybrid(keyword, semantic, alpha, 100, scale, { sectionOf, weight: 0.3 });
      expect(fused.length).toBeGreaterThan(3);
      for (const h of fused) {
        const p = h.parts;
        const kn = p.keywordRaw === null ? 0 : p.keywordRaw / p.keywordBest;
        const sn = p.semanticRaw === null ? 0 : Math.min(1, Math.max(0, (p.semanticRaw - scale.low) / (scale.high - scale.low)));
        expect(p.keywordNormalized).toBeCloseTo(kn, 12);
        expect(p.semanticNormalized).toBeCloseTo(sn, 12);
        const k = p.keywordSection === null ? kn : (1 - p.sectionWeight) * kn + p.sectionWeight * p.keywordSection;
        const s = p.semanticSection === null ? sn : (1 - p.sectionWeight) * sn + p.sectionWeight * p.semanticSection;
        expect(p.keywordFinal).toBeCloseTo(k, 12);
        expect(p.semanticFinal).toBeCloseTo(s, 12);
        expect(h.score).toBeCloseTo(p.alpha * s + (1 - p.alpha) * k, 12);
        expect([h.keywordScore, h.semanticScore]).toEqual([p.keywordFinal, p.semanticFinal]);
      }
      // the section context really moved a score: 'both' draws on k1, its section's best other article
      if (alpha < 1) expect(fused.find((h) => h.docId === 'both')!.parts.keywordSection).toBe(1);
    }
  });

  describe('citation authority', () => {
    const citedBy = new Map([['k2', 12], ['s2', 400], ['k3', 1]]);
    const authority = { citedBy: (id: string) => citedBy.get(id) ?? 0, weight: 0.1, saturation: 50 };

    it('grows with the logarithm of the citing documents and stops at the saturation', () => {
      expect(authorityBoost(0, authority)).toBe(0);
      expect(authorityBoost(1, authority)).toBeCloseTo((0.1 * Math.log(2)) / Math.log(51), 12);
      expect(authorityBoost(12, authority)).toBeCloseTo((0.1 * Math.log(13)) / Math.log(51), 12);
      expect(authorityBoost(50, authority)).toBeCloseTo(0.1, 12);
      expect(authorityBoost(400, authority)).toBe(0.1);
      expect(authorityBoost(12, { ...authority, weight: 0 })).toBe(0);
    });

    it('adds the boost to the fused score at every alpha, so a cited document passes an uncited tie', () => {
      // 'both' and 'k2' tie on keywords (BM25 8 each); only k2 is cited.
      expect(fuseHybrid(keyword, [], 0, 10).map((h) => h.docId)).toEqual(['k1', 'both', 'k2', 'k3']);
      const fused = fuseHybrid(keyword, [], 0, 10, undefined, undefined, authority);
      expect(fused.map((h) => h.docId)).toEqual(['k1', 'k2', 'both', 'k3']);
      for (const alpha of [0, 0.7, 1]) {
        for (const h of fuseHybrid(keyword, semantic, alpha, 100, { low: 0.2, high: 0.8 }, undefined, authority)) {
          const p = h.parts;
          const cited = citedBy.get(h.docId) ?? 0;
          expect(p.authority).toEqual({ citedBy: cited, boost: authorityBoost(cited, authority), weight: 0.1, saturation: 50 });
          expect(h.score).toBeCloseTo(p.alpha * p.semanticFinal + (1 - p.alpha) * p.keywordFinal + p.authority!.boost, 12);
        }
      }
    });

    it('never brings in a document the legs did not find, and is absent without counts', () => {
      const fused = fuseHybrid(keyword, [], 0, 100, undefined, undefined, { ...authority, citedBy: () => 1000 });
      expect(fused.map((h) => h.docId).sort()).toEqual(keyword.map((h) => h.docId).sort());
      for (const h of fuseHybrid(keyword, semantic, 0.7, 100)) {
        expect(h.parts.authority).toBeNull();
      }
    });
  });
});
