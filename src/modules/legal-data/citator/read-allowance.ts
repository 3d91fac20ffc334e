/**
 * One billed read per document page (issue 37 leftovers, docs/citator.md "Billing"): within one
 * request (one GraphQL operation, one REST call, one MCP tool call), a document that was billed as
 * a read comes with ONE `cites` and ONE `citedBy` page of it, unbilled. A page of documents read
 * as one call (a GraphQL list, `_entities`) covers each of its documents the same way. A second
 * `citedBy` of the same document in the same request (an alias, another page) is billed as a
 * read of its own, so a single operation cannot page a whole cited-by list for the price of one.
 *
 * The allowance lives in the request context (RequestContext.loader as a per-request memo) and
 * dies with it: never shared between requests or callers.
 */
import type { RequestContext } from '../../../context.js';

/** The citator reads a billed document read covers. */
export type CoveredRead = 'cites' | 'citedBy';

const ALLOWANCE = Symbol('citator reads covered by a billed document read');

function allowanceOf(ctx: RequestContext): Map<string, Set<CoveredRead>> {
  return ctx.loader(ALLOWANCE, () => new Map<string, Set<CoveredRead>>());
}

/** The documents `found` (by id) were billed as read in this request: each comes with one `cites` and one `citedBy`. Returns `found`. */
export function coverCitatorReads<T extends Map<string, unknown>>(ctx: RequestContext, found: T): T {
  const allowance = allowanceOf(ctx);
  // a document billed again in the same request renews its allowance (one of each again)
  for (const id of found.keys()) allowance.set(id, new Set<CoveredRead>(['cites', 'citedBy']));
  return found;
}

/** Whether this request's billed read of `id` still covers a `read` of it; uses the allowance up when it does. */
export function takeCoveredRead(ctx: RequestContext, id: string, read: CoveredRead): boolean {
  const left = allowanceOf(ctx).get(id);
  return left?.delete(read) ?? false;
}
