/**
 * Spends a Free-plan key's minute (10 requests) alternately on two processes `a` and `b` and
 * checks that they count it together: the `RateLimit` header's remaining count goes down 9…0
 * across both, and the next request is refused with 429 on either. Returns the two refusals.
 */
import { call, type HttpResult } from './http.js';

export async function spendFreeMinuteAcross(a: string, b: string, key: string): Promise<HttpResult[]> {
  for (let i = 0; i < 10; i++) {
    const res = await call(`${i % 2 ? a : b}/v1/documents/EU/EUR-Lex/x${i}`, 'GET', undefined, { key });
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"minute";r=${9 - i};t=\\d+$`));
  }
  const refusals: HttpResult[] = [];
  for (const url of [a, b]) {
    const refused = await call(`${url}/v1/documents/EU/EUR-Lex/y`, 'GET', undefined, { key });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Rate limit exceeded: the Free plan allows 10 requests per minute' });
    refusals.push(refused);
  }
  return refusals;
}
