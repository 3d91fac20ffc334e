/**
 * The `@rateLimit(limit, duration)` directive the team, billing, admin and accounts subgraphs
 * put on their limited fields: documentation only. The limit itself is counted by the service
 * each field calls (src/modules/usage/operation-limits.ts, the one list of these limits), so a
 * caller has one budget per operation over REST, GraphQL and MCP and across processes (Redis);
 * nothing here counts, or the same call would be counted twice (issue #35 item 8). Over the limit
 * the service's `rate_limited` error becomes `extensions.code` RATE_LIMITED with `retryAfterSeconds`.
 * The definition keeps graphql-rate-limit-directive's shape, so the subgraphs' SDL is unchanged.
 */
export const RATE_LIMIT_DIRECTIVE_TYPE_DEFS = `"""
Documents the rate of traffic a caller is allowed (counted by the service, shared with REST and MCP).
"""
directive @rateLimit(
  """
  Number of occurrences allowed over duration.
  """
  limit: Int! = 60

  """
  Number of seconds before limit is reset.
  """
  duration: Int! = 60
) on OBJECT | FIELD_DEFINITION`;
