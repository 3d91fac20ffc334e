/**
 * Requests the first page will make, sent before React renders (app/first-load.ts): the session
 * check and, for a page that says so, its data. The component that needs the answer takes the
 * request in flight (`takeEarly`) instead of sending it again; each is taken once, by an exact
 * match of operation and variables, and forgotten after the first navigation (its answer would be stale).
 */
import type { TypedDocumentString } from '../gql/graphql';
import { type Answered, request } from './client';

const inFlight = new Map<string, Promise<unknown>>();

const keyOf = (document: TypedDocumentString<unknown, unknown>, variables: unknown) => `${document.toString()}\n${JSON.stringify(variables ?? {})}`;

/** Sends the operation now and keeps its promise for the component that will ask for it. */
export function requestEarly<R, V>(document: TypedDocumentString<R, V>, variables?: V): Promise<Answered<R>> {
  const answer = (request as (d: TypedDocumentString<R, V>, v?: V) => Promise<Answered<R>>)(document, variables);
  // a failure is the taker's to show; a request nobody takes must not be an unhandled rejection
  answer.catch(() => undefined);
  inFlight.set(keyOf(document as TypedDocumentString<unknown, unknown>, variables), answer);
  return answer;
}

/** The early request of exactly this operation and these variables, once; undefined when there is none. */
export function takeEarly<R, V>(document: TypedDocumentString<R, V>, variables?: V): Promise<Answered<R>> | undefined {
  const key = keyOf(document as TypedDocumentString<unknown, unknown>, variables);
  const answer = inFlight.get(key);
  inFlight.delete(key);
  return answer as Promise<Answered<R>> | undefined;
}

/** Drops early requests nobody took (called on the first navigation). */
export function forgetEarly(): void {
  inFlight.clear();
}
