/**
 * Operation budgets counted in the same CounterStore as the plan limits (Redis when REDIS_URL is
 * set), so every door (REST, GraphQL, MCP) and every server process shares one budget: the
 * per-IP and per-address limits of the open sign-up and reset routes here, and the per-caller
 * limits of account, team, billing and administration operations in operation-limits.ts (the one
 * list of those). Independent of the plan and of RATE_LIMITS, like the sign-in throttle: they
 * protect the service, not a quota.
 */
import { DomainError } from '../../errors.js';
import type { CounterStore } from './counter-store.js';

export interface OperationLimit {
  /** The operation's name in the 429 detail and the counter key. */
  operation: string;
  limit: number;
  durationSeconds: number;
}

/** POST /auth/register (each one costs an argon2 hash): per client IP, counted before the e-mail is looked up. */
export const REGISTER_LIMIT: OperationLimit = { operation: 'register', limit: 20, durationSeconds: 600 };
/** POST /auth/password-reset/request: per client IP (429, whatever the address). */
export const PASSWORD_RESET_IP_LIMIT: OperationLimit = { operation: 'password_reset', limit: 10, durationSeconds: 600 };
/**
 * POST /auth/password-reset/request: mails per address (mail bombing). Past it the answer is the
 * same 200 and no mail goes out, so the limit reveals nothing about the address.
 */
export const PASSWORD_RESET_ADDRESS_LIMIT: OperationLimit = { operation: 'password_reset_mail', limit: 3, durationSeconds: 3600 };

/** POST /oauth/register (dynamic client registration is open to anyone): per client IP. */
export const REGISTER_CLIENT_LIMIT: OperationLimit = { operation: 'client_registration', limit: 50, durationSeconds: 3600 };

/** Counts one call of `rule.operation` by `who` when the budget allows; false (nothing counted) once it is spent. */
export async function withinOperationLimit(store: CounterStore, who: string, rule: OperationLimit, now = Date.now()): Promise<boolean> {
  const window = { name: rule.operation, limit: rule.limit, durationMs: rule.durationSeconds * 1000, bucketMs: 1000 };
  return (await store.consume(`op:${rule.operation}:${who}`, [window], { now, enforce: true, cost: 1 })).allowed;
}

/** Counts one call of `rule.operation` by `who`; 429 with Retry-After once the budget is spent. */
export async function throttleOperation(store: CounterStore, who: string, rule: OperationLimit, now = Date.now()): Promise<void> {
  const window = { name: rule.operation, limit: rule.limit, durationMs: rule.durationSeconds * 1000, bucketMs: 1000 };
  const result = await store.consume(`op:${rule.operation}:${who}`, [window], { now, enforce: true, cost: 1 });
  if (!result.allowed) {
    throw new DomainError(
      'rate_limited',
      `Too many requests: at most ${rule.limit} ${rule.operation} requests per ${rule.durationSeconds} seconds`,
      { retryAfterSeconds: Math.max(1, Math.ceil(result.retryAfterMs / 1000)) },
    );
  }
}
