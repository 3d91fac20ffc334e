import { broadcast } from './broadcast.js';

describe('broadcast', () => {
  it('gives every consumer every item, reading the source once and holding one item at a time', async () => {
    let reads = 0;
    let maxAhead = 0;
    const consumed = [0, 0];
    async function* source() {
      for (let i = 0; i < 50; i++) {
        reads += 1;
        maxAhead = Math.max(maxAhead, reads - Math.min(...consumed));
        yield i;
      }
    }
    const [a, b] = broadcast(source(), 2);
    const collect = async (it: AsyncIterable<number>, who: number, delayEvery: number) => {
      const out: number[] = [];
      for await (const v of it) {
        out.push(v);
        consumed[who] += 1;
        if (v % delayEvery === 0) await new Promise((r) => setTimeout(r, 1));
      }
      return out;
    };
    const [ra, rb] = await Promise.all([collect(a, 0, 3), collect(b, 1, 7)]);
    const all = Array.from({ length: 50 }, (_, i) => i);
    expect(ra).toEqual(all);
    expect(rb).toEqual(all);
    expect(reads).toBe(50);
    expect(maxAhead).toBeLessThanOrEqual(2);
  });

  it('lets the others finish when one consumer stops early', async () => {
    async function* source() {
      for (let i = 0; i < 10; i++) yield i;
    }
    const [a, b] = broadcast(source(), 2);
    const early = (async () => {
      for await (const v of a) if (v === 2) break;
    })();
    const rest: number[] = [];
    for await (const v of b) rest.push(v);
    await early;
    expect(rest).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
