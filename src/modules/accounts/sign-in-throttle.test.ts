/** The sign-in throttle's rules over the real in-process counter store, with a controlled clock. */
import { DomainError } from '../../errors.js';
import { MemoryCounterStore } from '../usage/counter-store.js';
import {
  LOGIN_FAILURES_PER_EMAIL_AND_IP,
  LOGIN_FAILURES_PER_IP,
  LOGIN_FREE_FAILURES_PER_EMAIL,
  LOGIN_MAX_DELAY_SECONDS,
  loginDelaySeconds,
  SignInThrottle,
} from './sign-in-throttle.js';

const T0 = 1_800_000_000_000;

async function refusal(attempt: Promise<unknown>): Promise<number | null> {
  try {
    await attempt;
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('rate_limited');
    return (error as DomainError).details!.retryAfterSeconds!;
  }
}

describe('sign-in throttle', () => {
  it('doubles the per-e-mail delay past the free failures and caps it at a minute', () => {
    expect([0, 1, LOGIN_FREE_FAILURES_PER_EMAIL].map(loginDelaySeconds)).toEqual([0, 0, 0]);
    const beyond = Array.from({ length: 9 }, (_, i) => loginDelaySeconds(LOGIN_FREE_FAILURES_PER_EMAIL + 1 + i));
    expect(beyond).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(Math.max(...beyond)).toBe(LOGIN_MAX_DELAY_SECONDS);
  });

  it('refuses the (e-mail, IP) pair past its bound, and a success gives its attempt back', async () => {
    const throttle = new SignInThrottle(new MemoryCounterStore());
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL_AND_IP - 1; i++) await throttle.attempt('a@example.org', '10.0.0.1', T0 + i);
    const success = await throttle.attempt('a@example.org', '10.0.0.1', T0 + 10);
    await success.succeeded();
    // the success did not use up the last slot
    await throttle.attempt('a@example.org', '10.0.0.1', T0 + 11);
    const retry = await refusal(throttle.attempt('a@example.org', '10.0.0.1', T0 + 12));
    expect(retry).toBeGreaterThan(800);
    // the same e-mail from elsewhere, and another e-mail from this address, go on
    expect(await refusal(throttle.attempt('a@example.org', '10.0.0.2', T0 + 13))).toBeNull();
    expect(await refusal(throttle.attempt('b@example.org', '10.0.0.1', T0 + 14))).toBeNull();
  });

  it('refuses one IP spraying many e-mails past its bound', async () => {
    const throttle = new SignInThrottle(new MemoryCounterStore());
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) await throttle.attempt(`user${i}@example.org`, '10.0.0.9', T0 + i);
    expect(await refusal(throttle.attempt('another@example.org', '10.0.0.9', T0 + 100))).toBeGreaterThan(800);
  });

  it('paces one e-mail across addresses with growing delays, and a refused attempt counts nothing', async () => {
    const throttle = new SignInThrottle(new MemoryCounterStore());
    let now = T0;
    let ip = 0;
    const attempt = () => throttle.attempt('victim@example.org', `192.0.2.${++ip}`, now);
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_EMAIL; i++) await attempt();
    // the 11th must wait 1 s after the 10th (at most one bucket more)
    expect(await refusal(attempt())).toBeLessThanOrEqual(2);
    now += 2_000;
    expect(await refusal(attempt())).toBeNull(); // 11th
    expect(await refusal(attempt())).toBeLessThanOrEqual(3); // the 12th waits 2 s
    now += 3_000;
    expect(await refusal(attempt())).toBeNull(); // 12th
    now += 2_000;
    expect(await refusal(attempt())).toBeGreaterThan(0); // the 13th waits 4 s
    now += 3_000;
    expect(await refusal(attempt())).toBeNull();
    // a minute at most, however many failures
    for (let i = 0; i < 20; i++) {
      now += LOGIN_MAX_DELAY_SECONDS * 1000 + 1_000;
      expect(await refusal(attempt())).toBeNull();
    }
    expect(await refusal(attempt())).toBeLessThanOrEqual(LOGIN_MAX_DELAY_SECONDS + 1);
  });
});
