/** The dashboard's error mapping (src/dashboard/api/errors.ts): every server answer becomes words and a kind. */
import { errorFromGraphql, errorFromResponse, retryAfterOf } from '../src/dashboard/api/errors.js';

describe('dashboard error mapping', () => {
  it('reads a 429 with Retry-After as rate_limited with the wait', async () => {
    const res = new Response(JSON.stringify({ detail: 'Rate limit exceeded: 3 per minute' }), { status: 429, headers: { 'retry-after': '42', 'content-type': 'application/json' } });
    const error = await errorFromResponse(res);
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBe(42);
    expect(error.message).toBe('Rate limit exceeded: 3 per minute');
  });

  it('puts a 422 detail list into words and per-field messages', async () => {
    const detail = [{ loc: ['body', 'password'], msg: 'String should have at least 8 characters', type: 'string_too_short' }];
    const error = await errorFromResponse(new Response(JSON.stringify({ detail }), { status: 422 }));
    expect(error.kind).toBe('validation');
    expect(error.message).toBe('password: String should have at least 8 characters');
    expect(error.fieldMessage('password')).toBe('String should have at least 8 characters');
  });

  it('maps 401 to unauthenticated and a body without JSON to its status text', async () => {
    const error = await errorFromResponse(new Response('nope', { status: 401, statusText: 'Unauthorized' }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe('Unauthorized');
  });

  it('maps GraphQL error codes, the rate-limit wait and validation issues', () => {
    expect(errorFromGraphql([{ message: 'Sign in first', extensions: { code: 'UNAUTHENTICATED' } }], 200).kind).toBe('unauthenticated');
    const limited = errorFromGraphql([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 7 } }], 200);
    expect([limited.kind, limited.retryAfterSeconds]).toEqual(['rate_limited', 7]);
    const invalid = errorFromGraphql([{ message: 'Invalid', extensions: { code: 'BAD_USER_INPUT', issues: [{ loc: ['input', 'top_k'], msg: 'must be at most 100' }] } }], 200);
    expect(invalid.kind).toBe('validation');
    expect(invalid.message).toBe('top_k: must be at most 100');
    expect(errorFromGraphql([{ message: 'Only administrators', extensions: { code: 'FORBIDDEN' } }], 200).kind).toBe('forbidden');
    expect(errorFromGraphql([{ message: 'boom' }], 500).kind).toBe('server');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterOf('5')).toBe(5);
    expect(retryAfterOf(null)).toBeNull();
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterOf(inTenSeconds)).toBeGreaterThanOrEqual(8);
  });
});
