/**
 * The one place that tells express which proxies to believe about the client (TRUST_PROXY):
 * `req.ip` (the key of the per-IP sign-in throttle, the Anonymous plan and the client
 * registration budget) and `req.protocol` come from X-Forwarded-* only through trusted hops.
 * Every express app of the service (the main app, a remote subgraph server) goes through here.
 */
import type { Express } from 'express';
import type { TrustProxySetting } from '../config.js';

/** TRUST_PROXY's default: only a proxy on the same machine. */
export const DEFAULT_TRUST_PROXY: TrustProxySetting = ['loopback'];

/** Sets express's `trust proxy` of `app` from TRUST_PROXY. */
export function applyTrustProxy(app: Express, setting: TrustProxySetting = DEFAULT_TRUST_PROXY): void {
  app.set('trust proxy', setting);
}

/**
 * Whether a socket's peer at `address` is a proxy `app` trusts (express's own compiled check, at
 * hop 0): the HTTP server exempts such peers from its per-address connection cap.
 */
export function isTrustedPeer(app: Express): (address: string) => boolean {
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  return (address) => trust(address, 0);
}
