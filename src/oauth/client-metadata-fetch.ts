/**
 * The outbound fetch of the authorization server (oidc-provider's `fetch` option), used for
 * client ID metadata documents: a `client_id` that is an https URL names a document the server
 * fetches (draft-ietf-oauth-client-id-metadata-document, MCP authorization 2025-11-25). Anyone can
 * make the server fetch any URL that way, so the fetch must not reach inside the network it runs in
 * (SSRF):
 *
 * - the host is resolved first and refused when any of its addresses is private, loopback,
 *   link-local or otherwise special-use (an IP literal too); oidc-provider's own dispatcher then
 *   checks the address actually connected to, so a name that resolves differently the second time
 *   (DNS rebinding) is cut at connect;
 * - redirects are not followed (oidc-provider asks for `redirect: 'manual'`, and anything but 200
 *   is refused);
 * - oidc-provider bounds the time (2.5 s for the whole exchange, body included) and the size
 *   (`fetchResponseBodyLimits`, set in authorization-server.ts).
 *
 * `allowPrivate` (OAUTH_CLIENT_METADATA_ALLOW_PRIVATE) lifts the address rule, for tests and
 * development, where the document is served from 127.0.0.1.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not the public Internet (IANA special-purpose registries): this network,
 * private, carrier-grade NAT, loopback, link-local, documentation, benchmarking, multicast and
 * reserved ranges; IPv6 unique-local, link-local, site-local, multicast, NAT64, 6to4 and Teredo
 * (which embed IPv4 addresses), discard and documentation. BlockList checks an IPv4-mapped IPv6
 * address (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
const SPECIAL_USE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) SPECIAL_USE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) SPECIAL_USE.addSubnet(network, prefix, 'ipv6');

export class PrivateAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or special-use address: client metadata documents must be served from the public Internet`);
    this.name = 'PrivateAddressError';
  }
}

/** True when `address` (an IP address) is on the public Internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !SPECIAL_USE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Refuses `url` when its host is, or resolves to, an address that is not public. */
export async function assertPublicHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const inside = addresses.find((address) => !isPublicAddress(address));
  if (inside !== undefined) throw new PrivateAddressError(host, inside);
}

/** oidc-provider's `fetch`: `globalThis.fetch` behind the address rule (unless `allowPrivate`). */
export function clientMetadataFetch(options: { allowPrivate: boolean }): (url: URL | string, init: RequestInit & { dispatcher?: unknown }) => Promise<Response> {
  return async (url, init) => {
    if (options.allowPrivate) {
      // oidc-provider's dispatcher refuses special-use addresses at connect: without it here
      const { dispatcher: _dispatcher, ...rest } = init;
      return fetch(url, rest);
    }
    await assertPublicHost(new URL(url));
    return fetch(url, init as RequestInit);
  };
}
