/**
 * The password sign-in throttle. Every attempt is counted *before* the password is verified, in
 * one atomic step per counter (CounterStore: in process, or one Lua script in Redis), so parallel
 * guesses cannot all pass a peek and reach argon2 together; a correct password takes its attempt
 * back (refund), so only failures accumulate.
 *
 * Three bounds, chosen so that nobody can lock a chosen user out:
 * - per (e-mail, IP), tight: 5 failures in 15 minutes, then 429 until the window frees a slot.
 *   The guesser only locks out its own address.
 * - per IP, over every e-mail: 20 failures in 15 minutes (password spraying from one address).
 * - per e-mail, over every IP, loose and never a lock: the first 10 failures in 15 minutes pass,
 *   then each attempt must come at least a delay after the previous one, doubling with every
 *   further failure (1 s, 2 s, 4 s ... capped at 60 s); an attempt too early gets 429 with the
 *   seconds left. A botnet gets at most 10 + ~20 guesses per 15 minutes on one account (at most
 *   one paced guess per second at any time), and the owner waits at most a minute, not 15.
 */
import { DomainError } from '../../errors.js';
import type { CounterStore, WindowSpec } from '../usage/counter-store.js';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_FAILURES_PER_EMAIL_AND_IP = 5;
export const LOGIN_FAILURES_PER_IP = 20;
/** Failures per e-mail (all IPs) within LOGIN_WINDOW_MS before attempts are paced. */
export const LOGIN_FREE_FAILURES_PER_EMAIL = 10;
export const LOGIN_MAX_DELAY_SECONDS = 60;

const window = (limit: number | null): WindowSpec => ({ name: 'login', limit, durationMs: LOGIN_WINDOW_MS, bucketMs: 10_000 });

/** Seconds an attempt must wait after the previous one once `failures` (this attempt included) exceed the free ones. */
export function loginDelaySeconds(failures: number): number {
  const beyond = failures - LOGIN_FREE_FAILURES_PER_EMAIL;
  return beyond <= 0 ? 0 : Math.min(LOGIN_MAX_DELAY_SECONDS, 2 ** (beyond - 1));
}

/** One counted attempt; `succeeded()` takes it back when the password was right. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

interface Counted {
  subject: string;
  windows: WindowSpec[];
}

export class SignInThrottle {
  constructor(private readonly counters: CounterStore) {}

  /** Counts an attempt on `email` from `ip`, or throws 429 (counting nothing) when a bound is reached. */
  async attempt(email: string, ip: string | null, now = Date.now()): Promise<SignInAttempt> {
    const who = ip ?? 'unknown';
    const counted: Counted[] = [];
    const refund = () => Promise.all(counted.map((c) => this.counters.refund(c.subject, c.windows, now)));
    const enforce = async (subject: string, windows: WindowSpec[]) => {
      const result = await this.counters.consume(subject, windows, { now, enforce: true, cost: 1 });
      if (!result.allowed) {
        await refund();
        throw new DomainError('rate_limited', 'Too many failed sign-in attempts; try again later', {
          retryAfterSeconds: Math.max(1, Math.ceil(result.retryAfterMs / 1000)),
        });
      }
      counted.push({ subject, windows });
      return result;
    };
    await enforce(`login-pair:${email}:${who}`, [window(LOGIN_FAILURES_PER_EMAIL_AND_IP)]);
    await enforce(`login-ip:${who}`, [window(LOGIN_FAILURES_PER_IP)]);
    const perEmail = await enforce(`login-email:${email}`, [window(null)]);
    const delay = loginDelaySeconds(perEmail.windows[0]!.count);
    // Every attempt is recorded here; once paced, an attempt must come `delay` seconds after the
    // previous one (the window's name is fixed, its length grows). With Redis the key expires a
    // little after the last attempt's window, so right after the delay doubles the pace can be up
    // to half the intended one: still bounded, never a lock.
    await enforce(`login-email-pace:${email}`, [{ name: 'pace', limit: delay > 0 ? 1 : null, durationMs: Math.max(delay, 1) * 1000, bucketMs: 1000 }]);
    return { succeeded: async () => void (await refund()) };
  }
}
