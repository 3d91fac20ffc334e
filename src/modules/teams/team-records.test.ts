/** The team answers built from stored rows: a domain proof's age, the join link, the personal workspace, the invite mail. */
import type { AccountCaller } from '../../context.js';
import { domainRecord, inviteMail, joinLinkRecord, joinUrl, personalTeamRecord } from './team-records.js';
import type { DomainClaimRow } from './workspace-domain.queries.js';

const HOUR = 3_600_000;
const now = Date.UTC(2026, 10, 27, 12);
const validAfter = new Date(now - 96 * HOUR);

function claim(overrides: Partial<DomainClaimRow> = {}): DomainClaimRow {
  return { domain: 'firm.example', status: 'pending', token: 't1', verified_at: null, last_seen_at: null, checked_at: null, check_error: null, ...overrides };
}

describe('team records', () => {
  it('shows the TXT record to publish with every claim', () => {
    expect(domainRecord(claim(), validAfter)).toEqual({
      domain: 'firm.example',
      status: 'pending',
      verification: { type: 'TXT', name: '_legal-search-challenge.firm.example', value: 'legal-search-domain-verification=t1' },
      verified_at: null,
      checked_at: null,
      check_error: null,
    });
  });

  it('shows a verified claim as verified while its record was seen recently enough', () => {
    const seen = new Date(now - HOUR);
    const record = domainRecord(claim({ status: 'verified', verified_at: new Date(now - 50 * HOUR), last_seen_at: seen, checked_at: seen }), validAfter);
    expect(record).toMatchObject({ status: 'verified', verified_at: new Date(now - 50 * HOUR).toISOString(), checked_at: seen.toISOString(), check_error: null });
  });

  it('shows (and so treats) a verified claim whose proof is too old as pending, with dns_error when no check said why', () => {
    const old = claim({ status: 'verified', verified_at: new Date(now - 200 * HOUR), last_seen_at: new Date(now - 97 * HOUR) });
    expect(domainRecord(old, validAfter)).toMatchObject({ status: 'pending', verified_at: null, check_error: 'dns_error' });
    // a stored reason wins
    expect(domainRecord({ ...old, check_error: 'record_missing' }, validAfter).check_error).toBe('record_missing');
    // exactly at the limit is too old
    expect(domainRecord({ ...old, last_seen_at: validAfter }, validAfter).status).toBe('pending');
  });

  it('gives the join link with its dashboard URL, and none without a token', () => {
    const created = new Date(now);
    expect(joinLinkRecord('https://search.example', { join_token: 'a b/c', join_token_created_at: created })).toEqual({
      token: 'a b/c',
      url: 'https://search.example/dashboard/team/join?token=a%20b%2Fc',
      created_at: created.toISOString(),
    });
    expect(joinLinkRecord('https://search.example', { join_token: null, join_token_created_at: null })).toBeNull();
  });

  it('answers the personal workspace with the caller as its one owner', () => {
    const caller = { kind: 'user', userId: 'u1', email: 'Ann@firm.example', plan: 'free' } as AccountCaller;
    const created = new Date(now - HOUR);
    const record = personalTeamRecord(caller, { email: 'ann@firm.example', name: 'Ann', created_at: created }, now);
    expect(record.workspace).toEqual({ id: null, kind: 'personal', name: 'Personal workspace', plan: 'free', seat_limit: 1, seats_used: 1, allowed_domains: [], domains: [] });
    expect(record.members).toEqual([{ user_id: 'u1', email: 'ann@firm.example', name: 'Ann', role: 'owner', joined_at: created.toISOString(), requests_in_period: 0 }]);
    expect(record.join_link).toBeNull();
    // no stored profile (deleted meanwhile): the caller's own address, joined now
    expect(personalTeamRecord(caller, null, now).members[0]).toMatchObject({ email: 'Ann@firm.example', name: null, joined_at: new Date(now).toISOString() });
  });

  it('mails the invite with the one-time link', () => {
    const mail = inviteMail({ to: 'bob@firm.example', token: 'tok', inviterEmail: 'ann@firm.example', workspaceName: 'Firm', baseUrl: 'https://search.example' });
    expect(mail.subject).toBe('You are invited to join Firm');
    expect(mail.text).toContain('ann@firm.example invites you to the workspace "Firm".');
    expect(mail.text).toContain(joinUrl('https://search.example', 'tok'));
  });
});
