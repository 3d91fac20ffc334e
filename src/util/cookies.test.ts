import { hasCookie, readCookie } from './cookies.js';

describe('cookies', () => {
  it('reads a cookie by name among others, spaces around the pairs ignored', () => {
    expect(readCookie('a=1; session=abc ;b=2', 'session')).toBe('abc');
    expect(readCookie('a=1;b=2', 'session')).toBeNull();
    expect(readCookie(undefined, 'session')).toBeNull();
  });

  it('decodes percent-encoding, and reads a malformed value as absent rather than throwing', () => {
    expect(readCookie('next=%2Fdashboard%3Fx%3D1', 'next')).toBe('/dashboard?x=1');
    expect(readCookie('session=%', 'session')).toBeNull();
    expect(hasCookie('session=%', 'session')).toBe(true);
  });

  it('lets the first occurrence of a name decide, even when it is empty or malformed', () => {
    expect(readCookie('session=first; session=second', 'session')).toBe('first');
    expect(readCookie('session=; session=second', 'session')).toBeNull();
    expect(readCookie('session=%; session=second', 'session')).toBeNull();
    expect(hasCookie('session=', 'session')).toBe(false);
  });

  it('keeps an equals sign inside the value and ignores pairs without a name', () => {
    expect(readCookie('=x; token=a=b', 'token')).toBe('a=b');
    expect(readCookie('junk; token=t', 'token')).toBe('t');
  });
});
