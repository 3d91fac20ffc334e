/**
 * Usage counting and plan limits: the one rule every billable call obeys, whichever door
 * (REST, GraphQL, MCP) it came through. `charge(ctx, endpoint, work)`:
 *  1. refuses callers without credentials (401), unless ALLOW_ANONYMOUS lets them in under the
 *     Anonymous plan, counted per client IP;
 *  2. checks and counts the caller's windows atomically (429 with Retry-After when a window is
 *     full; administrators and RATE_LIMITS=off are counted but never refused);
 *  3. runs the work and records one usage row with its status: success and client errors (422,
 *     404) are counted; a server error gives the counted slot back and records nothing.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { type AccountCaller, backgroundEm, type Caller, isAccount, type PlanId, type RequestContext, requireAccount, UNAUTHENTICATED_DETAIL } from '../../context.js';
import { DomainError, httpStatusOf } from '../../errors.js';
import type { ConsumeResult, CounterSource, CounterStore, WindowSpec } from './counter-store.js';
import { planOf, PLANS, ROLLING_PERIOD_MS, type PlanLimits } from './plans.js';
import { budgetHolderOf, operationLimit } from './operation-limits.js';
import { throttleOperation } from './throttle.js';
import { accountUsageTotals, countUsageBuckets, dailyUsageOf, type UsageEventRow, type UsageSubject, usagePerKeyAndEndpoint, workspaceUsageInPeriod } from './usage-event.queries.js';
import { type UsageBreakdown, usageRange } from './usage-breakdown.js';
import { type BatchLag, RECORDING_LAG_NOT_READY_SECONDS, type UsageRecorder } from './usage-recorder.js';
import type { UnbilledEndpoint, UsageFacts, UsageObserver } from './usage-guard.js';
import type { UsageRecord } from './usage.schema.js';

export type BillableEndpoint = 'search' | 'documents' | 'resolve' | (string & {});


const MINUTE = 60_000;
const MINUTE_BUCKET_MS = 100;
const DAY = 24 * 3600_000;

/** Daily history entry of the usage record. */
export interface UsageDay {
  date: string;
  count: number;
}

export type { UsageRecord } from './usage.schema.js';

/**
 * Extra credits (billing): a paid account whose period allowance is used up draws one request's
 * price per billable call instead of getting 429.
 */
export interface CreditDrawer {
  draw(caller: AccountCaller): Promise<boolean>;
  giveBack(caller: AccountCaller): Promise<void>;
}

export interface UsageSettings {
  allowAnonymous: boolean;
  rateLimits: boolean;
}

export class UsageService {
  private credits: CreditDrawer | null = null;
  private observer: UsageObserver | null = null;

  constructor(
    private readonly deps: {
      orm: MikroORM;
      store: CounterStore;
      recorder: UsageRecorder;
      settings: UsageSettings;
      now?: () => number;
    },
  ) {}

  /** Billing plugs in extra credits (it is built after the usage service). */
  useCredits(credits: CreditDrawer): void {
    this.credits = credits;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The partner analytics observe every counted call (they are built after the usage service). */
  useObserver(observer: UsageObserver): void {
    this.observer = observer;
  }

  /** Runs one billable call for `ctx`'s caller: authenticate, limit, run, count once (see the module comment). */
  admit(ctx: RequestContext): void {
    const caller = ctx.caller;
    if (isAccount(caller)) return;
    if (caller.rejected) throw new DomainError('unauthorized', caller.rejected);
    if (!this.deps.settings.allowAnonymous) throw new DomainError('unauthorized', UNAUTHENTICATED_DETAIL);
  }

  async charge<T>(ctx: RequestContext, endpoint: BillableEndpoint, work: () => Promise<T>, describe?: (answer: T) => UsageFacts): Promise<T> {
    const caller = ctx.caller;
    this.admit(ctx);
    const plan = isAccount(caller) ? planOf(caller.plan) : PLANS.anonymous;
    const now = this.now();
    const windows = limitWindows(plan, caller, now);
    const parts = countedParts(caller, windows);
    const enforce = this.deps.settings.rateLimits && !(isAccount(caller) && caller.isAdmin);
    let result = await this.consume(parts, caller, { now, enforce, cost: 1 });
    // Past the period allowance, a paid account pays from its extra credits: the other windows
    // (per minute, per day) still apply, and the request is counted in the period as usual.
    let drewCredit = false;
    if (!result.allowed && result.blockedBy === 'period' && plan.paid && isAccount(caller) && this.credits && (await this.credits.draw(caller))) {
      const unlimitedPeriod = windows.map((w) => (w.name === 'period' ? { ...w, limit: null } : w));
      result = await this.consume(countedParts(caller, unlimitedPeriod), caller, { now, enforce, cost: 1 });
      if (result.allowed) drewCredit = true;
      else await this.credits.giveBack(caller).catch(() => undefined);
    }
    // the RateLimit headers announce limits: where none is enforced they would only slow clients down
    if (enforce) ctx.rateLimit = {
      windows: result.windows
        .filter((w) => w.limit !== null)
        .map((w) => ({
          name: w.name,
          limit: w.limit!,
          windowSeconds: Math.round(windows.find((s) => s.name === w.name)!.durationMs / 1000),
          remaining: Math.max(0, w.limit! - w.count),
          resetSeconds: Math.ceil(w.resetMs / 1000),
        })),
    };
    if (!result.allowed) {
      const window = windows.find((w) => w.name === result.blockedBy)!;
      throw new DomainError(
        'rate_limited',
        `Rate limit exceeded: the ${plan.name} plan allows ${window.limit} requests per ${WINDOW_WORDS[window.name] ?? window.name}`,
        { retryAfterSeconds: Math.ceil(result.retryAfterMs / 1000) },
      );
    }

    let status = 200;
    let facts: UsageFacts | null = null;
    try {
      const answer = await work();
      facts = analyticsFacts(describe, answer);
      return answer;
    } catch (error) {
      status = httpStatusOf(error);
      throw error;
    } finally {
      // A server error is given back and not recorded. A request abandoned before its answer (its
      // client went away, the work stopped) counts, recorded as 499: giving it back would let a
      // client that leaves just before each answer search without limit (docs/reliability.md).
      const abandoned = ctx.signal.aborted;
      if (abandoned) status = httpStatusOf(new DomainError('abandoned', ''));
      if (status >= 500 && !abandoned) {
        for (const part of parts) await this.deps.store.refund(part.subject, part.windows, now).catch(() => undefined);
        if (drewCredit) await this.credits!.giveBack(caller as AccountCaller).catch(() => undefined);
      } else {
        this.deps.recorder.add(usageRow(caller, plan, endpoint, status, now));
        this.observer?.counted({ caller, endpoint, door: ctx.door, status, facts: status < 400 ? facts : null, at: now });
      }
    }
  }

  /**
   * Records a request that is answered without being billed (a document's 304 or HEAD) for the
   * usage statistics, under its own endpoint name: no window is counted or checked, and no plan
   * count includes it (`billed` false). The caller's credentials are checked as for a billable call.
   */
  recordUnbilled(ctx: RequestContext, endpoint: UnbilledEndpoint, status: number): void {
    const caller = ctx.caller;
    this.admit(ctx);
    const plan = isAccount(caller) ? planOf(caller.plan) : PLANS.anonymous;
    this.deps.recorder.add({ ...usageRow(caller, plan, endpoint, status, this.now()), billed: false });
  }

  /**
   * Consumes every part (the caller's own windows, then a team's pooled period): when a later part
   * refuses, the earlier ones are given back, so a refused request counts nowhere.
   */
  private async consume(parts: CountedPart[], caller: Caller, options: { now: number; enforce: boolean; cost: number }): Promise<ConsumeResult> {
    const results: ConsumeResult[] = [];
    for (const [i, part] of parts.entries()) {
      const result = await this.deps.store.consume(part.subject, part.windows, { ...options, rebuild: this.usageRowsOf(part, caller, options.now) });
      if (!result.allowed) {
        for (const done of parts.slice(0, i)) await this.deps.store.refund(done.subject, done.windows, options.now).catch(() => undefined);
        return result;
      }
      results.push(result);
    }
    return { allowed: true, retryAfterMs: 0, blockedBy: null, windows: results.flatMap((r) => r.windows) };
  }

  /**
   * The usage rows are the counters' source of truth: a store that does not hold a window (the
   * in-process counters after a restart, Redis after it lost its data) rebuilds it from them
   * before trusting it (one query per missing window), so neither hands out a fresh quota.
   */
  private usageRowsOf(part: CountedPart, caller: Caller, now: number): CounterSource {
    const who: UsageSubject = part.workspaceId ? { workspaceId: part.workspaceId } : isAccount(caller) ? { userId: caller.userId } : { clientIp: caller.ip };
    return async (window) => {
      // this process's rows still queued are written first, so they are counted
      await this.deps.recorder.flush();
      // fills the process-wide counter store (shared by every request), not this request's work
      const em = backgroundEm(this.deps.orm);
      const start = window.fixed ? window.fixed.start : now - window.durationMs;
      return countUsageBuckets(em, who, new Date(Math.floor(start / window.bucketMs) * window.bucketMs), window.bucketMs);
    };
  }

  /** The caller's usage record: plan, period, counts, limits and one history entry per day of the period. */
  async usageOf(ctx: RequestContext): Promise<UsageRecord> {
    // a month of rows per call: limited per caller across doors and processes (operation-limits.ts)
    await throttleOperation(this.deps.store, budgetHolderOf(ctx), operationLimit('usage'), this.now());
    const caller = requireAccount(ctx);
    await this.deps.recorder.flush();
    const plan = planOf(caller.plan);
    const now = this.now();
    const billing = plan.paid ? caller.billingPeriod : null;
    const periodStart = billing ? billing.start : now - ROLLING_PERIOD_MS;
    const em = ctx.em;
    const totals = await accountUsageTotals(em, caller.userId, new Date(now - DAY), new Date(periodStart));
    // a team member's period is the workspace's pool; their own share is reported beside it
    const pool = pooledWorkspace(caller, plan);
    const pooled = pool ? await workspaceUsageInPeriod(em, pool, new Date(periodStart)) : null;
    const byDay = await dailyUsageOf(em, caller.userId, new Date(periodStart));
    const history: UsageDay[] = [];
    for (let day = startOfUtcDay(periodStart); day <= now; day += DAY) {
      const date = new Date(day).toISOString().slice(0, 10);
      history.push({ date, count: byDay.get(date) ?? 0 });
    }
    const seats = plan.perSeat ? caller.seats : 1;
    const periodLimit = plan.perPeriod * seats;
    return {
      plan: plan.id,
      period_start: new Date(periodStart).toISOString(),
      period_end: billing ? new Date(billing.end).toISOString() : null,
      period_type: billing ? 'billing_period' : 'rolling_30d',
      requests_today: totals.today,
      requests_in_period: pooled ?? totals.period,
      ...(pool ? { my_requests_in_period: totals.period } : {}),
      per_minute_limit: plan.perMinute,
      per_day_limit: plan.perDay ?? periodLimit,
      per_period_limit: periodLimit,
      has_daily_limit: plan.perDay !== null,
      limits_enforced: this.deps.settings.rateLimits && !caller.isAdmin,
      daily_history: history,
    };
  }

  /** The caller's billed requests per API key and endpoint over a range of UTC days (usage-breakdown.ts); only their own rows. */
  async breakdownOf(ctx: RequestContext, query: unknown): Promise<UsageBreakdown> {
    await throttleOperation(this.deps.store, budgetHolderOf(ctx), operationLimit('usage_breakdown'), this.now());
    const caller = requireAccount(ctx);
    const range = usageRange(query, this.now());
    await this.deps.recorder.flush();
    const rows = await usagePerKeyAndEndpoint(ctx.em, caller.userId, range.start, range.end);
    return { from: range.from, to: range.to, total: rows.reduce((sum, r) => sum + r.requests, 0), rows };
  }

  /** Account deletion: queued and later usage rows of `userId` are anonymised (see UsageRecorder.forget). */
  forgetAccount(userId: string): { undo(): void; erasedKey: string } {
    // one random key for the erased account's analytics: its stored days and its queued calls alike
    const erasedKey = `erased:${randomUUID()}`;
    const usage = this.deps.recorder.forget(userId);
    const analytics = this.observer?.forget(userId, erasedKey);
    return {
      erasedKey,
      undo: () => {
        usage.undo();
        analytics?.undo();
      },
    };
  }

  /** How far usage recording lags, and whether it is too far behind for the process to be ready. */
  recordingLag(): { lag: BatchLag; tooFarBehind: boolean } {
    const lag = this.deps.recorder.lag();
    return { lag, tooFarBehind: (lag.oldest_pending_seconds ?? 0) > RECORDING_LAG_NOT_READY_SECONDS };
  }

  /** Writes pending usage rows (before reading or anonymising them). */
  flush(): Promise<void> {
    return this.deps.recorder.flush();
  }
}

const WINDOW_WORDS: Record<string, string> = { minute: 'minute', day: 'day (rolling 24 hours)', period: 'period' };

/** The windows a plan limits, for this caller at `now`. */
export function limitWindows(plan: PlanLimits, caller: Caller, now: number): WindowSpec[] {
  const seats = isAccount(caller) && plan.perSeat ? caller.seats : 1;
  const billing = isAccount(caller) && plan.paid ? caller.billingPeriod : null;
  // A bucket counts until its end plus the window: 100 ms buckets over 59.9 s hold each request
  // between 59.9 and 60 s, so the Retry-After of a full minute never exceeds 60 (1 s buckets over
  // 60 s held one for up to 61 s) and a client that waits it finds the slot free.
  const windows: WindowSpec[] = [{ name: 'minute', limit: plan.perMinute, durationMs: MINUTE - MINUTE_BUCKET_MS, bucketMs: MINUTE_BUCKET_MS }];
  if (plan.perDay !== null) windows.push({ name: 'day', limit: plan.perDay, durationMs: DAY, bucketMs: MINUTE });
  windows.push({
    name: 'period',
    limit: plan.perPeriod * seats,
    durationMs: billing ? billing.end - billing.start : ROLLING_PERIOD_MS,
    bucketMs: 3600_000,
    ...(billing && billing.end > now ? { fixed: billing } : {}),
  });
  return windows;
}

function subjectOf(caller: Caller): string {
  return isAccount(caller) ? `user:${caller.userId}` : `ip:${caller.ip ?? 'unknown'}`;
}

/** Windows counted under one subject; `workspaceId` marks a team's pool. */
interface CountedPart {
  subject: string;
  windows: WindowSpec[];
  workspaceId?: string;
}

/** The usage row of one request of `caller`: the account and key, or the anonymous client's IP. */
function usageRow(caller: Caller, plan: PlanLimits, endpoint: string, status: number, now: number): UsageEventRow {
  return {
    user_id: isAccount(caller) ? caller.userId : null,
    api_key_id: isAccount(caller) ? caller.keyId : null,
    client_ip: isAccount(caller) ? null : caller.ip,
    workspace_id: pooledWorkspace(caller, plan),
    endpoint,
    status,
    created_at: new Date(now),
  };
}

/** The team workspace whose pool a per-seat caller's period counts in (teams), else null. */
function pooledWorkspace(caller: Caller, plan: PlanLimits): string | null {
  return isAccount(caller) && plan.perSeat && caller.workspaceId ? caller.workspaceId : null;
}

/**
 * Where each window is counted: per key or session (the caller) for the per-minute and daily
 * limits; a team member's period allowance in the workspace's pool.
 */
function countedParts(caller: Caller, windows: WindowSpec[]): CountedPart[] {
  const pool = isAccount(caller) && caller.workspaceId && planOf(caller.plan).perSeat ? caller.workspaceId : null;
  if (!pool) return [{ subject: subjectOf(caller), windows }];
  return [
    { subject: subjectOf(caller), windows: windows.filter((w) => w.name !== 'period') },
    { subject: `workspace:${pool}`, windows: windows.filter((w) => w.name === 'period'), workspaceId: pool },
  ];
}

/** The analytics facts of an answer; a fault in describing it never fails the call it describes (the call is still counted). */
function analyticsFacts<T>(describe: ((answer: T) => UsageFacts) | undefined, answer: T): UsageFacts | null {
  try {
    return describe?.(answer) ?? null;
  } catch {
    return null;
  }
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}
