/**
 * The Elasticsearch client as the engine uses it: a transport that gives up fast on a node that
 * does not answer, and which failures mean "Elasticsearch unavailable" (HTTP 503 to callers).
 */
import { errors, SniffingTransport } from '@elastic/elasticsearch';

/**
 * The client's transport with a short retry backoff: a node that does not answer is retried
 * after about 0.2 s and 0.4 s (the default backoff waits 1-1.5 s then 2-4 s, so a search
 * would take 5 s to answer 503 while Elasticsearch is down).
 */
export class QuickRetryTransport extends SniffingTransport {
  constructor(options: ConstructorParameters<typeof SniffingTransport>[0]) {
    super({ ...options, retryBackoff: (_min: number, _max: number, attempt: number) => Math.min(0.1 * 2 ** attempt, 2) });
  }
}

/** Connection failures, timeouts and gateway answers: Elasticsearch is down, not the request wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError) return true;
  if (error instanceof errors.ProductNotSupportedError) return true;
  return error instanceof errors.ResponseError && (error.statusCode === 502 || error.statusCode === 503 || error.statusCode === 504);
}

/** A URL without its credentials (for error messages). */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'the configured URL';
  }
}
