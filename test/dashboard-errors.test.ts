/** The dashboard's error mapping (src/dashboard/api/errors.ts): every server answer becomes words and a kind. */
import { errorFromGraphql, errorFromResponse, issueSentence, retryAfterOf } from '../src/dashboard/api/errors.js';

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
    expect(error.message).toBe('Password: String should have at least 8 characters.');
    expect(error.fieldMessage('password')).toBe('Password: String should have at least 8 characters.');
  });

  it('names the bad item of a list in a sentence, never `emails.1: Value error, …`', async () => {
    const detail = [
      { type: 'value_error', loc: ['body', 'emails', 1], msg: 'Value error, value is not a valid email address: An email address must have an @-sign and a domain.', input: 'bob@' },
      { type: 'value_error', loc: ['body', 'domains', 0], msg: 'Value error, not a valid domain name', input: 'x' },
    ];
    const error = await errorFromResponse(new Response(JSON.stringify({ detail }), { status: 422 }));
    expect(error.message).toBe('“bob@” is not a valid e-mail address: An e-mail address must have an @-sign and a domain. “x” is not a valid domain name.');
    expect(error.message).not.toMatch(/emails\.1|Value error/);
    expect(error.itemIssues('emails')).toEqual([{ index: 1, input: 'bob@', sentence: '“bob@” is not a valid e-mail address: An e-mail address must have an @-sign and a domain.' }]);
    expect(error.fieldMessage('domains')).toBe('“x” is not a valid domain name.');
    // an item refused for another reason keeps the field's name and the value
    expect(issueSentence({ loc: ['domains', 2], msg: 'Value error, a public mail domain cannot be claimed', input: 'gmail.com' })).toBe('Domain “gmail.com”: a public mail domain cannot be claimed.');
    // GraphQL's locations (argument first) read the same
    expect(issueSentence({ loc: ['input', 'top_k'], msg: 'must be at most 100' })).toBe('Number of results: must be at most 100.');
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
    expect(invalid.message).toBe('Number of results: must be at most 100.');
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
