/**
 * The response headers /openapi.json declares, one object each, so every operation that sends
 * one describes it the same way (src/rest/rest-api.ts adds them by status and access).
 */
type HeaderDoc = { description: string; schema: Record<string, unknown> };

export const RETRY_AFTER: HeaderDoc = {
  description: 'Seconds to wait before trying again (at most 60 for a per-minute plan window)',
  schema: { type: 'integer', minimum: 1 },
};

/** Written by src/http/request-context.ts on billable answers to callers whose limits are enforced. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  RateLimit: {
    description: 'The window with the fewest requests left: `"minute";r=9;t=42` (draft-ietf-httpapi-ratelimit-headers). Only where a limit is enforced: not for administrators, nor with `RATE_LIMITS=off`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'Every window of the plan: `"minute";q=10;w=60, "day";q=100;w=86400`. Only where a limit is enforced',
    schema: { type: 'string' },
  },
};

/** RFC 6750's challenge (src/http/bearer-challenge.ts). */
export const WWW_AUTHENTICATE: HeaderDoc = {
  description: '`Bearer`, or `Bearer error="invalid_token"` / `error="invalid_request"` with an `error_description` (RFC 6750)',
  schema: { type: 'string' },
};

export const LOCATION: HeaderDoc = { description: 'Where the browser goes next', schema: { type: 'string', format: 'uri' } };
