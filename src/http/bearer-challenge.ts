/**
 * The `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3), written the same way by every door:
 * no error code when the request carried no bearer token (§3.1), `invalid_request` (400) for an
 * Authorization header that is not `Bearer <token>`, `invalid_token` (401) for a token that was
 * sent but is not valid; at the MCP endpoints `resource_metadata` (RFC 9728) and `scope` (RFC 6750
 * §3: the scopes a client must ask for, which MCP clients use as their scope selection).
 */

export type BearerError = 'invalid_request' | 'invalid_token';

/** What a challenge at a protected resource names: its RFC 9728 metadata URL and the scopes to ask for (space-separated). */
export interface ResourceChallenge {
  resourceMetadata: string;
  scope: string;
}

/** The challenge's value, e.g. `Bearer error="invalid_token", error_description="…"`. */
export function bearerChallenge(options: { error?: BearerError; description?: string } & Partial<ResourceChallenge> = {}): string {
  const params: string[] = [];
  if (options.error) params.push(`error="${options.error}"`);
  // a quoted-string cannot hold a double quote unescaped: the description's become single quotes
  if (options.error && options.description) params.push(`error_description="${options.description.replaceAll('"', "'")}"`);
  if (options.resourceMetadata) params.push(`resource_metadata="${options.resourceMetadata}"`);
  if (options.scope) params.push(`scope="${options.scope}"`);
  return params.length ? `Bearer ${params.join(', ')}` : 'Bearer';
}
