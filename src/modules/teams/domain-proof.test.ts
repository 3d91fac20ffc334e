import { challengeName, challengeValue, decideClaims, newDomainToken, proofValidAfter, type DomainClaim } from './domain-proof.js';

const HOUR = 3_600_000;
const timing = { recheckMs: 24 * HOUR, graceMs: 72 * HOUR, retryMs: HOUR };
const now = Date.UTC(2026, 10, 27, 12);

function claim(workspace_id: string, token: string, status: DomainClaim['status'] = 'pending', lastSeenHoursAgo: number | null = null, createdHoursAgo = 100): DomainClaim {
  return {
    workspace_id,
    token,
    status,
    created_at: new Date(now - createdHoursAgo * HOUR),
    last_seen_at: lastSeenHoursAgo === null ? null : new Date(now - lastSeenHoursAgo * HOUR),
  };
}

const records = (...tokens: string[]) => ({ kind: 'records' as const, records: tokens.map(challengeValue) });

describe('domain proofs', () => {
  it('names the record under its own label and draws a fresh 128-bit token each time', () => {
    expect(challengeName('firm.example')).toBe('_legal-search-challenge.firm.example');
    expect(challengeValue('abc')).toBe('legal-search-domain-verification=abc');
    const tokens = new Set(Array.from({ length: 50 }, newDomainToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('verifies a pending claim whose token is in the answer, and only the exact value', () => {
    const [decision] = decideClaims([claim('a', 't1')], records('t1'), now, timing);
    expect(decision).toEqual({ workspace_id: 'a', status: 'verified', check_error: null, seen: true, next_check_at: new Date(now + timing.recheckMs) });
    const near = { kind: 'records' as const, records: ['legal-search-domain-verification=t1x', 't1', 'v=spf1 -all'] };
    expect(decideClaims([claim('a', 't1')], near, now, timing)[0]).toMatchObject({ status: 'pending', check_error: 'record_missing', seen: false });
    // surrounding blanks (as some DNS consoles keep them) do not matter
    expect(decideClaims([claim('a', 't1')], { kind: 'records', records: [' legal-search-domain-verification=t1 '] }, now, timing)[0].status).toBe('verified');
  });

  it('sends a verified claim back to pending at once when the DNS answers without its record (NXDOMAIN included)', () => {
    for (const answer of [records(), records('someone-else')]) {
      expect(decideClaims([claim('a', 't1', 'verified', 1)], answer, now, timing)[0]).toMatchObject({ status: 'pending', check_error: 'record_missing' });
    }
  });

  it('keeps a verified claim through DNS failures while its record was seen within re-check + grace, then drops it', () => {
    const error = { kind: 'error' as const, code: 'ETIMEOUT' };
    const recent = decideClaims([claim('a', 't1', 'verified', 95)], error, now, timing)[0]!;
    expect(recent).toEqual({ workspace_id: 'a', status: 'verified', check_error: 'dns_error', seen: false, next_check_at: new Date(now + timing.retryMs) });
    expect(decideClaims([claim('a', 't1', 'verified', 97)], error, now, timing)[0]).toMatchObject({ status: 'pending', check_error: 'dns_error' });
    expect(decideClaims([claim('a', 't1')], error, now, timing)[0]).toMatchObject({ status: 'pending', check_error: 'dns_error' });
    expect(proofValidAfter(now, timing)).toEqual(new Date(now - 96 * HOUR));
  });

  it('lets a second workspace supersede nobody: the holder keeps the domain while its record is published', () => {
    const holder = claim('holder', 'h', 'verified', 20, 200);
    const newcomer = claim('newcomer', 'n', 'pending', null, 1);
    const both = decideClaims([holder, newcomer], records('h', 'n'), now, timing);
    expect(both.map((d) => [d.workspace_id, d.status, d.check_error])).toEqual([
      ['holder', 'verified', null],
      ['newcomer', 'pending', 'verified_elsewhere'],
    ]);
    // the holder's record is gone: the newcomer, whose record is there, takes it over
    const moved = decideClaims([holder, newcomer], records('n'), now, timing);
    expect(moved.map((d) => [d.workspace_id, d.status, d.check_error])).toEqual([
      ['holder', 'pending', 'record_missing'],
      ['newcomer', 'verified', null],
    ]);
  });

  it('gives an unheld domain to the oldest claim whose record is published, never to two', () => {
    const decisions = decideClaims([claim('young', 'y', 'pending', null, 1), claim('old', 'o', 'pending', null, 50), claim('absent', 'x')], records('y', 'o'), now, timing);
    expect(decisions.filter((d) => d.status === 'verified').map((d) => d.workspace_id)).toEqual(['old']);
    expect(decisions.find((d) => d.workspace_id === 'young')!.check_error).toBe('verified_elsewhere');
    expect(decisions.find((d) => d.workspace_id === 'absent')!.check_error).toBe('record_missing');
  });
});
