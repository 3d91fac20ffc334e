/**
 * The states every page can be in, designed once: loading, empty, error (the API's `detail` in
 * words), rate-limited (with a countdown of the wait) and forbidden. <QueryState> picks the
 * right one for a useQuery result.
 */
import { type ReactNode, useEffect, useState } from 'react';
import type { ApiError } from '../api/errors';
import type { QueryResult } from '../app/hooks';
import type { Answered } from '../api/client';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

/** A countdown that calls `onDone` when the wait is over. */
function useCountdown(seconds: number | null, onDone?: () => void): number | null {
  const [left, setLeft] = useState(seconds);
  useEffect(() => setLeft(seconds), [seconds]);
  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      onDone?.();
      return;
    }
    const t = setTimeout(() => setLeft((l) => (l === null ? null : l - 1)), 1000);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [left]);
  return left;
}

export function RateLimited({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const left = useCountdown(error.retryAfterSeconds);
  return (
    <div className="state state-error state-rate-limited" role="alert">
      <p className="state-title">Too many requests</p>
      <p>{error.message}</p>
      {left !== null && left > 0 ? (
        <p>
          You can try again in <strong>{formatWait(left)}</strong>.
        </p>
      ) : (
        <p>You can try again now.</p>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry} disabled={left !== null && left > 0}>
          Try again
        </button>
      )}
    </div>
  );
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.ceil(minutes / 60)} hours`;
}

const TITLES: Partial<Record<ApiError['kind'], string>> = {
  forbidden: 'Not allowed',
  not_found: 'Not found',
  network: 'No connection',
  validation: 'Please check your input',
  conflict: 'Conflict',
  unauthenticated: 'Signed out',
};

/** An error in words; rate limits get their countdown. */
export function ErrorState({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  if (error.kind === 'rate_limited') return <RateLimited error={error} onRetry={onRetry} />;
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{TITLES[error.kind] ?? 'Something went wrong'}</p>
      <p>{error.message}</p>
      {onRetry && error.kind !== 'forbidden' && error.kind !== 'validation' && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A small inline error under a form (same words, no big box). */
export function FormError({ error }: { error: ApiError | null }) {
  if (!error) return null;
  if (error.kind === 'rate_limited') return <RateLimited error={error} />;
  return (
    <p className="form-error" role="alert">
      {error.message}
    </p>
  );
}

/** Loading, then the error, then `children(data)`. Keeps showing the last data while reloading. */
export function QueryState<R>({ result, children, loadingLabel }: { result: QueryResult<R>; children: (data: Answered<R>) => ReactNode; loadingLabel?: string }) {
  if (result.error && !result.data) return <ErrorState error={result.error} onRetry={result.reload} />;
  if (result.data === undefined) return <Loading label={loadingLabel} />;
  return (
    <>
      {result.error && <ErrorState error={result.error} onRetry={result.reload} />}
      {children(result.data)}
    </>
  );
}
