/**
 * Data hooks over the typed client: `useQuery` (loading / data / error, reload) and
 * `useMutation` (run, pending, error). Errors are ApiErrors; pages render them with <QueryState>
 * or <ErrorState>.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type Answered, request } from '../api/client';
import { takeEarly } from '../api/early-requests';
import { ApiError } from '../api/errors';
import type { TypedDocumentString } from '../gql/graphql';

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError('server', e instanceof Error ? e.message : String(e));
}

export interface QueryResult<R> {
  data: Answered<R> | undefined;
  error: ApiError | null;
  loading: boolean;
  reload(): void;
}

/**
 * Runs the query now and whenever `variables` change (compared as JSON); `skip` holds it. The
 * first run takes the same request when it was sent early (api/early-requests.ts).
 */
export function useQuery<R, V>(document: TypedDocumentString<R, V>, variables?: V, options: { skip?: boolean } = {}): QueryResult<R> {
  const [state, setState] = useState<{ data: Answered<R> | undefined; error: ApiError | null; loading: boolean }>({ data: undefined, error: null, loading: !options.skip });
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(variables ?? {});
  useEffect(() => {
    if (options.skip) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    (takeEarly(document, variables) ?? (request as (d: TypedDocumentString<R, V>, v?: V) => Promise<Answered<R>>)(document, variables)).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (e: unknown) => live && setState((s) => ({ data: s.data, error: asApiError(e), loading: false })),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [document, key, tick, options.skip]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export interface MutationResult<R, V> {
  run(variables: V): Promise<Answered<R> | undefined>;
  pending: boolean;
  error: ApiError | null;
  reset(): void;
}

/** `run` answers the data, or undefined after setting `error`. */
export function useMutation<R, V>(document: TypedDocumentString<R, V>): MutationResult<R, V> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const run = useCallback(
    async (variables: V) => {
      setPending(true);
      setError(null);
      try {
        return await (request as (d: TypedDocumentString<R, V>, v?: V) => Promise<Answered<R>>)(document, variables);
      } catch (e) {
        if (mounted.current) setError(asApiError(e));
        return undefined;
      } finally {
        if (mounted.current) setPending(false);
      }
    },
    [document],
  );
  return { run, pending, error, reset: () => setError(null) };
}

/** Runs any async action (an /auth call) with pending + error state. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setPending(true);
      setError(null);
      try {
        return await action(...args);
      } catch (e) {
        setError(asApiError(e));
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error, setError };
}

/** Sets the document title for a page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – Legal Search`;
  }, [title]);
}
