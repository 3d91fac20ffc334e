import { cosine, feedbackQuery, norm } from './vector-math.js';

describe('feedbackQuery (relevance feedback)', () => {
  const query = Float32Array.from([3, 0, 0]);

  it('is the normalised query when no passage is given', () => {
    expect(Array.from(feedbackQuery(query, [], 0.5))).toEqual([1, 0, 0]);
    expect(Array.from(feedbackQuery(query, [[0, 0, 0]], 0.5))).toEqual([1, 0, 0]);
  });

  it('adds the normalised sum of the passages with its weight, then normalises', () => {
    // q̂ = (1, 0, 0); Σp = (0, 2, 0) + (0, 2, 0) → (0, 1, 0); q̂ + 0.5 · (0, 1, 0) = (1, 0.5, 0)
    const moved = feedbackQuery(query, [[0, 2, 0], [0, 2, 0]], 0.5);
    expect(norm(moved)).toBeCloseTo(1, 6);
    expect(moved[0]).toBeCloseTo(1 / Math.sqrt(1.25), 6);
    expect(moved[1]).toBeCloseTo(0.5 / Math.sqrt(1.25), 6);
    expect(moved[2]).toBe(0);
  });

  it('moves the query towards the passages, the more so with a larger weight', () => {
    const passage = [0.6, 0.8, 0];
    const before = cosine(query, passage);
    const near = cosine(feedbackQuery(query, [passage], 0.5), passage);
    const nearer = cosine(feedbackQuery(query, [passage], 1), passage);
    expect(near).toBeGreaterThan(before);
    expect(nearer).toBeGreaterThan(near);
    // the passages' lengths do not matter, only their directions summed
    expect(Array.from(feedbackQuery(query, [passage.map((x) => x * 10)], 0.5))).toEqual(Array.from(feedbackQuery(query, [passage], 0.5)));
  });
});
