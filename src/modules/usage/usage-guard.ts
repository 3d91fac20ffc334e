/** The usage guard billable service methods call (implemented by UsageService). */
import type { RequestContext } from '../../context.js';

/** Requests recorded for the statistics but never billed: a document's revalidation (304) and HEAD. */
export type UnbilledEndpoint = 'documents.not_modified' | 'documents.head';

/**
 * What a billable call's answer says for the partner analytics (issue #35): never the query text,
 * never a document's text. Built by the service that ran the call, from its answer.
 */
export interface UsageFacts {
  /** Search: the filters used and the sources of the hits returned (hits per source). */
  search?: {
    namespace: string | null;
    countries: string[];
    hitsBySource: Record<string, number>;
    hitsByCountry: Record<string, number>;
    /** Hits per (source, country) pair: the analytics grid (absent: a source's country is its name's prefix). */
    hitsBySourceCountry?: { source: string; country: string; hits: number }[];
  };
  /** Documents: the documents fetched (one, or a GraphQL list read as one call). */
  documents?: { source: string; sourceId: string; namespace: string; country: string }[];
  /** Resolve: how the reference matched and, when resolved, the first document's source and country. */
  resolution?: { matchType: string; source: string | null; country: string | null };
}

/** One counted billable call, as the usage guard hands it to its observers (the analytics recorder). */
export interface CountedCall {
  caller: RequestContext['caller'];
  endpoint: string;
  door: RequestContext['door'];
  status: number;
  /** Null for a call that did not succeed. */
  facts: UsageFacts | null;
  at: number;
}

/** Told of every counted billable call, on the request path: must only queue (see AnalyticsRecorder). */
export interface UsageObserver {
  counted(call: CountedCall): void;
  /** An account is being erased: its queued and later calls go under `erasedKey` (the key its stored rows get too). */
  forget(userId: string, erasedKey: string): { undo(): void };
}

export interface UsageGuard {
  /**
   * Runs `work` as one billable call of `ctx`'s caller: 401 without credentials (unless anonymous
   * use is allowed), 429 over a plan limit (not counted), otherwise counted once with its status
   * (server errors are not counted). `describe` turns a successful answer into its analytics facts.
   */
  charge<T>(ctx: RequestContext, endpoint: string, work: () => Promise<T>, describe?: (answer: T) => UsageFacts): Promise<T>;
  /**
   * For the data API's endpoints that are not billable yet not open (the spec opens only
   * discovery, stats, manifest and plans): 401 where charge() would refuse the caller, nothing
   * counted.
   */
  admit(ctx: RequestContext): void;
  /**
   * A request answered without being billed (a document's 304 or HEAD), recorded for the usage
   * statistics under its own endpoint name: 401 where admit() refuses, no limit, no plan count.
   */
  recordUnbilled(ctx: RequestContext, endpoint: UnbilledEndpoint, status: number): void;
}
