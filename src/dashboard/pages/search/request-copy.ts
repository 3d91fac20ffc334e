/**
 * The search the page just ran, as the REST request that gives the same hits: POST /v1/search
 * with the SearchRequest body (the spec's snake_case fields), as JSON or as a curl command. The
 * key is a placeholder (`$API_KEY`, expanded by the shell): the page never shows a real key or
 * the session cookie.
 */
import type { SearchInput } from '../../gql/graphql';

/** The REST body of the GraphQL SearchInput the page sent; unset (null) filters are left out, as the API defaults them. */
export function restSearchBody(input: SearchInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    q: input.q,
    namespace: input.namespace,
    top_k: input.topK,
    alpha: input.alpha,
    country: input.country,
    source: input.source,
    date_start: input.dateStart,
    date_end: input.dateEnd,
    court: input.court,
    court_tier: input.courtTier,
    jurisdiction: input.jurisdiction,
    language: input.language,
    result_detail: input.resultDetail,
    explain: input.explain,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
}

/** The JSON body, indented for reading. */
export function searchJson(input: SearchInput): string {
  return JSON.stringify(restSearchBody(input), null, 2);
}

/** A POSIX shell single-quoted string ('…', with ' written as '\''). */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The curl command for `origin` (the service's public address); the key comes from the shell's API_KEY. */
export function searchCurl(origin: string, input: SearchInput): string {
  return [
    `curl -sS -X POST ${shellQuote(`${origin}/v1/search`)}`,
    // double quotes: the shell puts the key in; the page never knows it
    `  -H "Authorization: Bearer $API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  --data-raw ${shellQuote(JSON.stringify(restSearchBody(input)))}`,
  ].join(' \\\n');
}
