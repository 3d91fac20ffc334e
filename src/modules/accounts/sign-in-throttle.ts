/**
 * The password sign-in throttle. Every attempt is counted *before* the password is verified, in
 * one atomic step per counter (CounterStore: in process, or one Lua script in Redis), so
 * parallel guesses cannot all pass a peek and reach argon2 together; a correct password takes its
 * attempt back (refund), so only failures accumulate.
 *
 * Nobody can lock a chosen user out, and people behind one address (an office, a NAT, a campus)
 * do not lock each other out. Two bounds (figures: the defaults, all configurable):
 * - per account (its e-mail, over every IP): a slow-down, never a lock. The first 5 failures in
 *   15 minutes pass; then each attempt must come at least a delay after the previous one,
 *   doubling with every further failure (1 s, 2 s, 4 s ... capped at 60 s); an attempt too early
 *   gets 429 with the seconds left. A guesser, from one address or a botnet, gets about 5 + 20
 *   guesses per quarter hour on one account; the owner waits at most a minute, whoever guesses.
 * - per client IP, over every account: 100 failures in 15 minutes, then 429 until the window
 *   frees a slot (password spraying: few guesses on many accounts slip under the per-account
 *   slow-down). High enough that an office's typos never reach it.
 * An attacker who keeps an account paced can still make the owner wait; the owner's way around
 * that no attacker can block is the password-reset link: confirming it signs the owner in without
 * this throttle and clears the account's failures (`clearAccount`). The 429 says so.
 */
import type { SignInThrottleSettings } from '../../config.js';
import { DomainError } from '../../errors.js';
import type { CounterStore, WindowSpec } from '../usage/counter-store.js';

export type { SignInThrottleSettings };

/** What the 429 tells the owner to do instead of waiting (the reset link signs in and clears the failures). */
const RESET_HINT = 'or reset your password (POST /auth/password-reset/request): the link in the e-mail signs you in';

/**
 * Seconds an attempt must wait after the previous one, once `failures` (this attempt included)
 * exceed the free ones: 1 s for the first attempt beyond them, doubling with each further one,
 * capped at `maxDelaySeconds`. Doubling makes a guesser's cost grow fast while a person who
 * mistyped a few times more than allowed waits seconds, never minutes.
 */
export function loginDelaySeconds(failures: number, settings: Pick<SignInThrottleSettings, 'freeFailuresPerAccount' | 'maxDelaySeconds'>): number {
  const beyond = failures - settings.freeFailuresPerAccount;
  return beyond <= 0 ? 0 : Math.min(settings.maxDelaySeconds, 2 ** Math.min(beyond - 1, 30));
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
  constructor(
    private readonly counters: CounterStore,
    private readonly settings: SignInThrottleSettings,
  ) {}

  /** Counts an attempt on `email` from `ip`, or throws 429 (counting nothing) when a bound is reached. */
  async attempt(email: string, ip: string | null, now = Date.now()): Promise<SignInAttempt> {
    const counted: Counted[] = [];
    const refund = () => Promise.all(counted.map((c) => this.counters.refund(c.subject, c.windows, now)));
    const enforce = async (subject: string, windows: WindowSpec[], refusal: (seconds: number) => string) => {
      const result = await this.counters.consume(subject, windows, { now, enforce: true, cost: 1 });
      if (!result.allowed) {
        await refund();
        const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
        throw new DomainError('rate_limited', refusal(seconds), { retryAfterSeconds: seconds });
      }
      counted.push({ subject, windows });
      return result;
    };
    const wait = (seconds: number) => `try again in ${seconds} second${seconds === 1 ? '' : 's'}`;
    await enforce(ipSubject(ip), [this.window(this.settings.failuresPerIp)], (s) => `Too many failed sign-in attempts from this network: ${wait(s)}, ${RESET_HINT}`);
    const onAccount = (s: number) => `Too many failed sign-in attempts on this account: ${wait(s)}, ${RESET_HINT}`;
    const perAccount = await enforce(accountSubject(email), [this.window(null)], onAccount);
    const delay = loginDelaySeconds(perAccount.windows[0]!.count, this.settings);
    // Every attempt is recorded here; once paced, an attempt must come `delay` seconds after the
    // previous one (the window's name is fixed, its length grows). With Redis the key expires a
    // little after the last attempt's window, so right after the delay doubles the pace can be up
    // to half the intended one: still bounded, never a lock.
    await enforce(paceSubject(email), [paceWindow(delay)], onAccount);
    return { succeeded: async () => void (await refund()) };
  }

  /**
   * Forgets the account's failures (its window and its pace): a password-reset link proved the
   * owner, so the owner is not made to wait for a guesser's attempts against the old password.
   * The per-IP counters stay: they are about the network, not the account.
   */
  async clearAccount(email: string): Promise<void> {
    await this.counters.clear(accountSubject(email), [this.window(null)]);
    await this.counters.clear(paceSubject(email), [paceWindow(0)]);
  }

  private window(limit: number | null): WindowSpec {
    return { name: 'login', limit, durationMs: this.settings.windowSeconds * 1000, bucketMs: 10_000 };
  }
}

const ipSubject = (ip: string | null) => `login-ip:${ip ?? 'unknown'}`;
const accountSubject = (email: string) => `login-email:${email}`;
const paceSubject = (email: string) => `login-email-pace:${email}`;

function paceWindow(delaySeconds: number): WindowSpec {
  return { name: 'pace', limit: delaySeconds > 0 ? 1 : null, durationMs: Math.max(delaySeconds, 1) * 1000, bucketMs: 1000 };
}
