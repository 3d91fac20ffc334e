import type { AccountCaller } from '../../context.js';
import { DomainError } from '../../errors.js';
import { SSE_RETRY_AFTER_SECONDS, SseSessionSlots } from './sse-session-slots.js';

const LIMITS = { maxSessions: 10, maxSessionsPerAccount: 3, maxSessionsPerIp: 4, maxSessionsUnverified: 1, idleTimeoutSeconds: 1 };

function caller(userId: string, ip: string, emailVerified = true): AccountCaller {
  return { kind: 'api_key', ip, userId, email: `${userId}@example.org`, plan: 'free', isAdmin: false, emailVerified, seats: 1, keyId: null, billingPeriod: null };
}

/** The 429 a claim throws, or null when it was admitted. */
function refusal(slots: SseSessionSlots, who: AccountCaller): DomainError | null {
  try {
    slots.claim(who, () => undefined);
    return null;
  } catch (error) {
    return error as DomainError;
  }
}

describe('SseSessionSlots', () => {
  it('refuses past the per-account cap, then the per-address cap (an IPv6 client by its /64), with 429 and Retry-After', () => {
    const slots = new SseSessionSlots(LIMITS);
    for (let i = 0; i < 3; i++) expect(refusal(slots, caller('a', '203.0.113.1'))).toBeNull();
    const overAccount = refusal(slots, caller('a', '203.0.113.2'))!;
    expect([overAccount.code, overAccount.details?.retryAfterSeconds]).toEqual(['rate_limited', SSE_RETRY_AFTER_SECONDS]);
    expect(overAccount.message).toMatch(/for this account \(at most 3\)/);

    for (const [user, ip] of [['b', '2001:db8:0:1::1'], ['c', '2001:db8:0:1::2'], ['d', '2001:db8:0:1:ffff::3'], ['e', '2001:db8:0:1::4']]) {
      expect(refusal(slots, caller(user!, ip!))).toBeNull();
    }
    expect(refusal(slots, caller('f', '2001:db8:0:1::99'))!.message).toMatch(/from this address \(at most 4\)/);
    expect(refusal(slots, caller('f', '2001:db8:0:2::99'))).toBeNull(); // another /64
    expect(slots.size).toBe(8);
  });

  it('gives an unverified account the smaller cap, and none at 0', () => {
    const slots = new SseSessionSlots(LIMITS);
    expect(refusal(slots, caller('u', '203.0.113.1', false))).toBeNull();
    expect(refusal(slots, caller('u', '203.0.113.2', false))!.message).toMatch(/not verified \(at most 1\)/);
    const none = new SseSessionSlots({ ...LIMITS, maxSessionsUnverified: 0 });
    expect(refusal(none, caller('u', '203.0.113.1', false))!.message).toMatch(/need an account whose e-mail address is verified/);
    expect(refusal(none, caller('v', '203.0.113.1', true))).toBeNull();
  });

  it('refuses past the overall cap; a released slot frees its place', () => {
    const slots = new SseSessionSlots({ ...LIMITS, maxSessions: 2 });
    const first = slots.claim(caller('a', '203.0.113.1'), () => undefined);
    slots.claim(caller('b', '203.0.113.2'), () => undefined);
    expect(refusal(slots, caller('c', '203.0.113.3'))!.message).toMatch(/on this server/);
    first.release();
    first.release(); // idempotent
    expect(slots.size).toBe(1);
    expect(refusal(slots, caller('c', '203.0.113.3'))).toBeNull();
  });

  it('calls onIdle once the client has been silent for the idle time; touch() starts it again', async () => {
    const slots = new SseSessionSlots(LIMITS);
    const idle: string[] = [];
    const touched = slots.claim(caller('a', '203.0.113.1'), () => idle.push('touched'));
    const released = slots.claim(caller('b', '203.0.113.1'), () => idle.push('released'));
    slots.claim(caller('c', '203.0.113.1'), () => idle.push('silent'));
    released.release();
    await new Promise((resolve) => setTimeout(resolve, 600));
    touched.touch();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(idle).toEqual(['silent']);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(idle).toEqual(['silent', 'touched']);
  });
});
