/**
 * The dashboard's GraphQL client: one POST to the service's supergraph (/graphql) per
 * operation, with the session cookie (same origin). Typed by the generated documents
 * (src/dashboard/gql): `request(KeysDocument)` answers the KeysQuery type.
 */
import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, errorFromGraphql, errorFromResponse } from './errors';
import { postJson } from './http';

export const GRAPHQL_ENDPOINT = '/graphql';

/** Listeners told when a call answers 401/UNAUTHENTICATED (the session ended mid-way). */
const signedOutListeners = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

function report(error: ApiError): ApiError {
  if (error.kind === 'unauthenticated') for (const l of signedOutListeners) l();
  return error;
}

export type Variables<V> = V extends Record<string, never> ? [variables?: V] : [variables: V];

/**
 * Root fields whose null is an answer (no team workspace, no such document, not a partner).
 * Every other root field is nullable only so that a refused field (UNAUTHENTICATED, FORBIDDEN)
 * leaves the rest of an answer (docs/graphql.md); `request` throws on any GraphQL error, so an answer it returns
 * holds those fields.
 */
const NULL_IS_AN_ANSWER = ['team', 'document', 'partnerScope', 'adminPartner'] as const;
type NullIsAnAnswer = (typeof NULL_IS_AN_ANSWER)[number];

/** An operation's data as `request` returns it: the refusable root fields present. */
export type Answered<R> = { [K in keyof R]: K extends NullIsAnAnswer ? R[K] : NonNullable<R[K]> };

/** Checks what `Answered` promises; a null refusable field without an error is a server bug. */
function answered<R>(data: R): Answered<R> {
  for (const [field, value] of Object.entries(data as object)) {
    if (value === null && !(NULL_IS_AN_ANSWER as readonly string[]).includes(field)) throw new ApiError('server', `The server gave no ${field}`);
  }
  return data as Answered<R>;
}

/** Runs a typed operation; throws an ApiError on any failure (HTTP, GraphQL errors, network). */
export async function request<R, V>(document: TypedDocumentString<R, V>, ...[variables]: Variables<V>): Promise<Answered<R>> {
  const res = await postJson(GRAPHQL_ENDPOINT, { query: document.toString(), variables: variables ?? {} }, 'application/graphql-response+json, application/json');
  let body: { data?: R | null; errors?: { message?: string; extensions?: { code?: string } }[] } | null = null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      body = await res.json();
    } catch {
      body = null;
    }
  }
  if (body?.errors && body.errors.length > 0) throw report(errorFromGraphql(body.errors, res.status));
  if (!res.ok) throw report(await errorFromResponse(res));
  if (!body || body.data == null) throw new ApiError('server', 'The server gave no answer');
  return answered(body.data);
}

