/**
 * The proof that a workspace controls an allowed domain, and the rule that turns one DNS answer
 * into the next state of every workspace's claim of that domain (pure: no I/O, no clock).
 *
 * The proof is a TXT record `legal-search-domain-verification=<token>` at
 * `_legal-search-challenge.<domain>`, the token random per workspace and domain. A name of its
 * own (as Slack's and GitHub's `_…-challenge` records) keeps the apex's TXT set (SPF, other
 * services' proofs) untouched, and one look-up at that name returns every workspace's token.
 */
import { randomBytes } from 'node:crypto';
import type { TxtAnswer } from './dns-txt-lookup.js';

export const CHALLENGE_LABEL = '_legal-search-challenge';
export const RECORD_PREFIX = 'legal-search-domain-verification=';

/** `pending` auto-joins nobody; `verified`: its record was seen (and is re-checked). */
export type DomainStatus = 'pending' | 'verified';
/**
 * Why the last check did not verify: `record_missing` (the DNS answered, without this token),
 * `dns_error` (no usable answer: timeout, SERVFAIL, refused), `verified_elsewhere` (the record is
 * there, but another workspace's claim of the domain is verified and its record is there too).
 */
export type CheckError = 'record_missing' | 'dns_error' | 'verified_elsewhere';

/** The DNS name a domain's proof is looked up at. */
export function challengeName(domain: string): string {
  return `${CHALLENGE_LABEL}.${domain}`;
}

/** The TXT record's text for a token. */
export function challengeValue(token: string): string {
  return `${RECORD_PREFIX}${token}`;
}

/** A new claim's token: 128 random bits in hex (DNS-safe, case-insensitive-safe, short enough to paste). */
export function newDomainToken(): string {
  return randomBytes(16).toString('hex');
}

export interface ProofTiming {
  /** A checked domain is looked up again this long after its last answer. */
  recheckMs: number;
  /** How long past a due re-check a verified domain survives look-ups that fail. */
  graceMs: number;
  /** After a failed look-up the next try comes after this (at most `recheckMs`). */
  retryMs: number;
}

/**
 * The oldest sighting of its record a verified claim may rest on (`last_seen_at` after it):
 * one re-check interval plus the grace period. Auto-join asks this too, so a proof expires
 * even where no process runs the re-check timer.
 */
export function proofValidAfter(now: number, timing: ProofTiming): Date {
  return new Date(now - timing.recheckMs - timing.graceMs);
}

/** One workspace's claim of a domain, as stored. */
export interface DomainClaim {
  workspace_id: string;
  status: DomainStatus;
  token: string;
  created_at: Date;
  last_seen_at: Date | null;
}

/** What one DNS answer makes of a claim. */
export interface ClaimDecision {
  workspace_id: string;
  status: DomainStatus;
  check_error: CheckError | null;
  /** Its token was in the answer (`last_seen_at` moves to now). */
  seen: boolean;
  next_check_at: Date;
}

/**
 * The next state of every claim of one domain after one look-up of its challenge name.
 *
 * - A DNS answer (records, or none: NXDOMAIN and NODATA are answers) is the domain holder's word.
 *   A verified claim whose token is missing goes back to pending at once: the holder removed the
 *   record or the domain changed hands, and auto-joining on would be the attack this guards.
 *   Nobody is removed from a workspace by it, so a false alarm costs a re-check, not members.
 * - At most one claim is verified (a partial unique index says so too). A verified claim whose
 *   token is still there keeps the domain: a second workspace's record does not supersede it
 *   (that claim stays pending, `verified_elsewhere`), so nobody loses a domain silently. The
 *   holder loses it only when its own record is gone; then the oldest claim whose record is
 *   there wins (deterministic when the holder's DNS carries several tokens).
 * - No usable answer (timeout, SERVFAIL) says nothing about the holder's intent: a verified claim
 *   keeps auto-joining while its record was seen within `proofValidAfter`, and is tried again
 *   after `retryMs`; past that it goes back to pending.
 */
export function decideClaims(claims: readonly DomainClaim[], answer: TxtAnswer, now: number, timing: ProofTiming): ClaimDecision[] {
  if (answer.kind === 'error') {
    const validAfter = proofValidAfter(now, timing).getTime();
    const retryAt = new Date(now + Math.min(timing.retryMs, timing.recheckMs));
    return claims.map((claim) => ({
      workspace_id: claim.workspace_id,
      status: claim.status === 'verified' && claim.last_seen_at !== null && claim.last_seen_at.getTime() > validAfter ? 'verified' : 'pending',
      check_error: 'dns_error',
      seen: false,
      next_check_at: retryAt,
    }));
  }
  const present = new Set(
    answer.records
      .map((record) => record.trim())
      .filter((record) => record.startsWith(RECORD_PREFIX))
      .map((record) => record.slice(RECORD_PREFIX.length).trim()),
  );
  const holder = claims.find((claim) => claim.status === 'verified' && present.has(claim.token));
  const winner =
    holder ??
    [...claims]
      .filter((claim) => present.has(claim.token))
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.workspace_id.localeCompare(b.workspace_id))[0];
  const nextCheck = new Date(now + timing.recheckMs);
  return claims.map((claim) => {
    const seen = present.has(claim.token);
    const wins = claim === winner;
    return {
      workspace_id: claim.workspace_id,
      status: wins ? 'verified' : 'pending',
      check_error: wins ? null : seen ? 'verified_elsewhere' : 'record_missing',
      seen,
      next_check_at: nextCheck,
    };
  });
}
