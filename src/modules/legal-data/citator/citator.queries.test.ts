/**
 * The relevance of a citing passage (`sort=relevance`) as SQL: which words of `q` it counts, and
 * that `q` reaches LIKE as literal text. The ranking itself runs in SQL and is tested end to end
 * (test/citator-doors.e2e.test.ts).
 */
import { relevanceSql } from './citator.queries.js';

describe('relevanceSql', () => {
  it('counts the distinct words of q (case folded, two characters or more) and q as a phrase', () => {
    const { sql, params } = relevanceSql({ sort: 'relevance', q: 'Verzug der  Mietsache, verzug a' });
    expect(params).toEqual(['%verzug%', '%der%', '%mietsache%', '%verzug der mietsache, verzug a%']);
    expect(sql.match(/like \?/g)).toHaveLength(4);
  });

  it("escapes LIKE's wildcards and its escape character in the phrase", () => {
    expect(relevanceSql({ sort: 'relevance', q: 'wegen_Verzug 50% \\x' }).params.at(-1)).toBe('%wegen\\_verzug 50\\% \\\\x%');
  });

  it('scores nothing without q, for the other sorts, or for a q of no word', () => {
    expect(relevanceSql({ sort: 'relevance', q: null })).toEqual({ sql: '0', params: [] });
    expect(relevanceSql({ sort: 'date', q: 'Verzug' })).toEqual({ sql: '0', params: [] });
    expect(relevanceSql({ sort: 'relevance', q: '% _ !' })).toEqual({ sql: '0', params: [] });
  });

  it('keeps the first eight words', () => {
    const words = Array.from({ length: 12 }, (_, i) => `wort${i}`);
    expect(relevanceSql({ sort: 'relevance', q: words.join(' ') }).params).toHaveLength(9);
  });
});
