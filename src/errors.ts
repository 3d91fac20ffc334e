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
  | 'unavailable';

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
