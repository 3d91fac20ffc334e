/**
 * Domain errors with stable codes. Services throw them; each door (REST, GraphQL, MCP)
 * maps the code to its own protocol in one place.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'bad_request'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  /** An outside service the request needed (the payment provider) failed or did not answer. */
  | 'bad_gateway'
  /** The client went away before the answer (RequestContext.signal): its work stopped, nothing is sent or billed. */
  | 'abandoned';

/** One validation problem, in the shape FastAPI puts in a 422 `detail` list. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { issues?: ValidationIssue[]; retryAfterSeconds?: number },
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ValidationError extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    super('validation_failed', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '), { issues });
  }
}

/** Throws `error` unless `condition` holds (assert-style helper used by services). */
export function assertThat(condition: unknown, error: DomainError | (() => DomainError)): asserts condition {
  if (!condition) throw typeof error === 'function' ? error() : error;
}

/** The HTTP status each error code ends in; what every door answers and what usage records. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_failed: 422,
  bad_request: 400,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  // nginx's "client closed request": never seen by a client, only in logs and traces
  abandoned: 499,
};

/** The HTTP status a thrown error ends in: its code's, or 500 for anything unexpected. */
export function httpStatusOf(error: unknown): number {
  return error instanceof DomainError ? (HTTP_STATUS_BY_CODE[error.code] ?? 500) : 500;
}
