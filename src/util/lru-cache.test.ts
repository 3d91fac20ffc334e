import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('forgets the least recently used entry first, a read counting as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now more recent than b
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('keeps null and other falsy values apart from absent keys', () => {
    const cache = new LruCache<string, number | null>(3);
    cache.set('none', null);
    cache.set('zero', 0);
    expect(cache.get('none')).toBeNull();
    expect(cache.get('zero')).toBe(0);
    expect(cache.get('absent')).toBeUndefined();
    expect(cache.has('none')).toBe(true);
  });

  it('replaces a value in place, holds nothing at size 0, and empties on clear', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    const off = new LruCache<string, number>(0);
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
    expect(() => new LruCache(-1)).toThrow(RangeError);
  });
});
