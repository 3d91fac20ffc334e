/** The usage guard billable service methods call (implemented by UsageService). */
import type { RequestContext } from '../../context.js';

/** Requests recorded for the statistics but never billed: a document's revalidation (304) and HEAD. */
export type UnbilledEndpoint = 'documents.not_modified' | 'documents.head';

export interface UsageGuard {
  /**
   * Runs `work` as one billable call of `ctx`'s caller: 401 without credentials (unless anonymous
   * use is allowed), 429 over a plan limit (not counted), otherwise counted once with its status
   * (server errors are not counted).
   */
  charge<T>(ctx: RequestContext, endpoint: string, work: () => Promise<T>): Promise<T>;
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
