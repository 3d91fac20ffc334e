/**
 * The request context every service call receives first: who is calling and the
 * per-request database handle. Doors build it; services read it.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { DomainError } from './errors.js';

/** Plan identifiers of the plan table (src/modules/usage/plans.ts). */
export type PlanId = 'anonymous' | 'free' | 'professional' | 'professional_plus' | 'developer_pro' | 'developer_scale';

/** An authenticated account, however it proved itself. */
export interface AccountCaller {
  /** `user`: session cookie; `api_key`: an API key; `oauth`: an access token of the platform's authorization server (MCP). */
  kind: 'user' | 'api_key' | 'oauth';
  ip: string | null;
  userId: string;
  email: string;
  plan: PlanId;
  /** E-mail listed in ADMIN_EMAILS: counted, never limited. */
  isAdmin: boolean;
  /** The account has proven its e-mail address: an unverified one gets fewer long-lived MCP streams (SSE_MAX_SESSIONS_UNVERIFIED). */
  emailVerified: boolean;
  /** Seats of the plan (per-seat period limits): the team workspace's seat limit, else 1. */
  seats: number;
  /** The team workspace whose plan and pooled period allowance the account uses (teams); unset outside one. */
  workspaceId?: string;
  /** Set for kind `api_key`. */
  keyId: string | null;
  /** The payment provider's billing window of a paid plan (ms since epoch); null = rolling 30 days. */
  billingPeriod: { start: number; end: number } | null;
  /** When the session or OAuth token was issued (ms): a proof of the address after it ends it (accounts' email-proof.ts). */
  credentialIssuedAtMs?: number;
}

export interface AnonymousCaller {
  kind: 'anonymous';
  ip: string | null;
  /**
   * Why credentials that were sent were refused (unknown or revoked key, expired session):
   * billable calls answer 401 with it instead of falling back to the Anonymous plan.
   */
  rejected?: string;
}

export type Caller = AnonymousCaller | AccountCaller;

/** What the usage guard learnt about the caller's limits on this request (the REST door turns it into headers). */
export interface RateLimitState {
  /** One entry per enforced window: name, quota, window length in seconds, remaining, seconds until reset. */
  windows: { name: string; limit: number; windowSeconds: number; remaining: number; resetSeconds: number }[];
}

export interface RequestContext {
  requestId: string;
  caller: Caller;
  /** Filled by the usage guard on billable calls. */
  rateLimit?: RateLimitState;
  /**
   * The door the call came through (unset = REST, GraphQL or internal). Every MCP tool call is
   * billable, discovery included, while discovery stays open on REST and GraphQL: the services
   * read this to apply that rule in one place.
   */
  door?: 'mcp';
  /**
   * The request's unit of work: ONE forked entity manager for the whole request, made on first
   * use (a request that never touches the database forks nothing). Services read with it and
   * open a write's transaction on it (`ctx.em.transactional(async (tx) => ...)`), so a failing
   * write rolls back everything the same transaction wrote. Inside a request never fork
   * `orm.em` yourself (test/unit-of-work-rule.test.ts lists the places outside requests that do).
   */
  readonly em: EntityManager;
  /**
   * The request's loaders (GraphQL's per-request DataLoaders): the one under `key`, made by `make`
   * on first use, so every resolver of the request batches through the same one.
   */
  loader<T>(key: symbol, make: () => T): T;
  /**
   * Aborted when nobody waits for the answer any more: the client went away (its connection
   * closed before the response was sent, an MCP call was cancelled). Services hand it to every
   * engine call so abandoned work stops (docs/reliability.md, "Abandoned work"); never aborted for
   * calls made on behalf of nobody.
   */
  readonly signal: AbortSignal;
}

/** A signal that never aborts (contexts built outside any request). */
const NEVER = new AbortController().signal;

/** Where a context's unit of work comes from: the MikroORM instance (only its global `em` is forked). */
export interface UnitOfWorkSource {
  em: { fork(): EntityManager };
}

/**
 * The one place doors get their RequestContext from (REST middleware, GraphQL context, MCP tool
 * calls, OAuth interaction routes): built once at composition time with the ORM.
 */
export interface RequestContexts {
  /** A context for an anonymous caller (or for the service's own calls made on behalf of nobody); `signal`: see RequestContext.signal. */
  anonymous(ip?: string | null, requestId?: string, signal?: AbortSignal): RequestContext;
  /** A context for `caller` (doors build it after authenticating the request); `signal`: see RequestContext.signal. */
  forCaller(caller: Caller, requestId?: string, signal?: AbortSignal): RequestContext;
}

/** The context factory over `orm`: every context it builds forks `orm.em` lazily, once. */
export function requestContexts(orm: UnitOfWorkSource): RequestContexts {
  const fork = () => orm.em.fork();
  return {
    anonymous: (ip = null, requestId = randomUUID(), signal = NEVER) => buildContext({ kind: 'anonymous', ip }, requestId, fork, signal),
    forCaller: (caller, requestId = randomUUID(), signal = NEVER) => buildContext(caller, requestId, fork, signal),
  };
}

/**
 * Contexts without a database (a remote subgraph that only serves the search engine, a request
 * no authentication middleware saw): reading `em` on one is a wiring bug and throws.
 */
export const contextsWithoutDatabase: RequestContexts = {
  anonymous: (ip = null, requestId = randomUUID(), signal = NEVER) => buildContext({ kind: 'anonymous', ip }, requestId, noDatabase, signal),
  forCaller: (caller, requestId = randomUUID(), signal = NEVER) => buildContext(caller, requestId, noDatabase, signal),
};

function noDatabase(): never {
  throw new Error('this RequestContext has no unit of work: build it with requestContexts(orm) (see src/context.ts)');
}

/**
 * The same request under another request id (a proxy's or the gateway's x-request-id): it keeps
 * the unit of work of `ctx` (a spread would resolve the lazy `em` getter, forking eagerly).
 */
export function withRequestId(ctx: RequestContext, requestId: string): RequestContext {
  const copy = Object.create(Object.getPrototypeOf(ctx) as object, Object.getOwnPropertyDescriptors(ctx)) as RequestContext & { requestId: string };
  copy.requestId = requestId;
  return copy;
}

function buildContext(caller: Caller, requestId: string, fork: () => EntityManager, signal: AbortSignal): RequestContext {
  let em: EntityManager | undefined;
  const loaders = new Map<symbol, unknown>();
  return {
    requestId,
    caller,
    signal,
    get em() {
      return (em ??= fork());
    },
    loader<T>(key: symbol, make: () => T): T {
      if (!loaders.has(key)) loaders.set(key, make());
      return loaders.get(key) as T;
    },
  };
}

/** True when the caller is an authenticated account. */
export function isAccount(caller: Caller): caller is AccountCaller {
  return caller.kind !== 'anonymous';
}

export const UNAUTHENTICATED_DETAIL = 'Not authenticated: send an API key as "Authorization: Bearer <API_KEY>" or sign in';

/** The authenticated account of `ctx`, or 401 (with the reason its credentials were refused, if any). */
export function requireAccount(ctx: RequestContext): AccountCaller {
  const caller = ctx.caller;
  if (isAccount(caller)) return caller;
  throw new DomainError('unauthorized', caller.rejected ?? UNAUTHENTICATED_DETAIL);
}

/**
 * An entity manager for work outside any request (background sweeps, the usage recorder's flush,
 * the payment provider's webhook processing, auto top-up, start-up, CLI): its own fork, named so
 * that "inside a request, use ctx.em" stays checkable (test/unit-of-work-rule.test.ts).
 */
export function backgroundEm(orm: UnitOfWorkSource): EntityManager {
  return orm.em.fork();
}
