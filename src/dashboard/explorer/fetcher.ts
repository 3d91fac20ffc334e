/**
 * GraphiQL's fetcher: a same-origin POST, so the browser sends the session cookie of a signed-in
 * dashboard user; the headers typed in GraphiQL's Headers tab (an `authorization: Bearer sk-…`
 * API key) are added to it. Nothing else is contacted.
 */
import type { GraphiQLProps } from 'graphiql';

export function explorerFetcher(endpoint: string): GraphiQLProps['fetcher'] {
  return async (params, options) => {
    const res = await fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options?.headers },
      body: JSON.stringify(params),
    });
    return res.json();
  };
}
