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
  const domain = asDomainError(error);
  return domain instanceof DomainError ? (HTTP_STATUS_BY_CODE[domain.code] ?? 500) : 500;
}

/** Seconds a client is told to wait when the database does not answer (a restart, a failover). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATE classes of a database that cannot serve now rather than a query that is wrong:
 * 08 connection exceptions, 53 insufficient resources (disk full, out of memory, too many
 * connections), 57014 statement timeout (DATABASE_STATEMENT_TIMEOUT_MS), 57P01-57P03 shutdown.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57014|57P0[123])$/;
/**
 * The pg driver's own messages for a server that does not answer, and the system calls' errors
 * (these only on MikroORM's driver exceptions, `*Exception`: a refused connection elsewhere, to
 * the payment provider say, is not the database).
 */
const UNAVAILABLE_MESSAGE = /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * The domain error a thrown error stands for: itself when it is one; `unavailable` (503 with
 * Retry-After) for a database that is down, frozen past its timeouts or out of resources (issue
 * #33 item 4), recognised on the error or its causes; otherwise the error unchanged (a 500).
 * Every door's mapper calls it, and httpStatusOf, so a usage slot is given back for such a request.
 */
export function asDomainError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    const driverException = typeof name === 'string' && name.endsWith('Exception');
    const unavailable =
      (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || (driverException && UNAVAILABLE_ERRNO.has(code)))) ||
      (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message));
    if (unavailable) {
      return new DomainError('unavailable', 'The database does not answer; try again shortly', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
    }
  }
  return error;
}
