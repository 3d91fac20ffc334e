/**
 * Which resources (RFC 8707) one grant covers, and the refresh that must not spend a token it
 * then refuses.
 *
 * One grant covers the whole MCP server: to a user, `/mcp` and `/sse` are one server, and an
 * agent (the official MCP SDK does this by itself) may hold one grant and switch between the two
 * transports, or read only the root metadata (resource BASE_URL). So every authorization is
 * widened to all three resource indicators, the one(s) the client asked for first: the consent,
 * the grant, the code and every refresh token then cover BASE_URL, BASE_URL/mcp and
 * BASE_URL/sse, and a refresh may ask for any of them. An access token is still issued for one
 * audience: the resource the token request names, else the first one the client asked for at
 * authorization (BASE_URL when it named none). Any other resource is refused (`invalid_target`).
 *
 * oidc-provider 9 (lib/actions/grants/refresh_token.js) consumes the refresh token before it
 * resolves the requested resource, so a refresh refused with `invalid_target` would spend the
 * token and the client's retry would be taken for reuse, revoking the whole grant. Its
 * `rotateRefreshToken` hook is called after every other check and right before the token is
 * consumed: `refuseUncoveredRefresh` runs there and refuses such a request first, so a refused
 * refresh consumes nothing (test/oauth-mcp-clients.e2e.test.ts fails if an upgrade moves the hook).
 */
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * Widens every authorization request (GET `authorizationPath`) to all the MCP resources, those
 * the client named first. A request naming a resource outside them is left alone: oidc-provider
 * refuses it (`invalid_target`).
 */
export function authorizeForTheWholeMcpServer(provider: Provider, authorizationPath: string, resources: readonly string[], baseUrl: string): void {
  const known = new Set(resources);
  provider.use((ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === authorizationPath) {
      const given = ctx.query.resource;
      const asked = (Array.isArray(given) ? given : given === undefined ? [] : [given]).filter(Boolean);
      if (asked.every((resource) => known.has(resource))) {
        const first = asked.length ? asked : [baseUrl];
        ctx.query = { ...ctx.query, resource: [...new Set([...first, ...resources])] };
      }
    }
    return next();
  });
}

/**
 * The resource of an access token when the request names several or none (oidc-provider asks
 * with the list the code or refresh token covers, in the order the client asked for them).
 */
export function firstResource(oneOf: readonly string[] | undefined): string | undefined {
  return oneOf?.[0];
}

/**
 * Called from `rotateRefreshToken`, before oidc-provider consumes the refresh token: a `resource`
 * the refresh token does not cover, or that this server does not serve, is refused here, with
 * nothing consumed.
 */
export function refuseUncoveredRefresh(ctx: KoaContextWithOIDC, resources: readonly string[]): void {
  const requested = (ctx.oidc.params as Record<string, unknown> | undefined)?.resource;
  if (requested === undefined) return;
  const covered = ctx.oidc.entities.RefreshToken?.resourceIndicators ?? new Set<string>();
  for (const resource of [requested].flat()) {
    if (typeof resource !== 'string' || !resources.includes(resource) || !covered.has(resource)) {
      throw new errors.InvalidTarget(`this grant covers ${[...covered].join(', ')}; ask for one of them`);
    }
  }
}
