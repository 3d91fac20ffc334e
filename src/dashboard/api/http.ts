/**
 * The dashboard's one fetch: a same-origin JSON POST carrying the session cookie, used by the
 * GraphQL client (client.ts) and the /auth calls (auth.ts). A request that never reaches the
 * server becomes one ApiError of kind `network`, so every page words it the same way; what the
 * answer means (GraphQL errors, a REST error body) stays with the caller.
 */
import { ApiError } from './errors';

/** POSTs `body` as JSON to `path` (no body when undefined) and returns the response, whatever its status. */
export async function postJson(path: string, body: unknown, accept = 'application/json'): Promise<Response> {
  try {
    return await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network', 'The server could not be reached. Check your connection and try again.');
  }
}
