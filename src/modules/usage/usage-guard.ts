/** The usage guard billable service methods call (implemented by UsageService). */
import type { RequestContext } from '../../context.js';

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
}
