/**
 * TXT look-ups through `node:dns/promises` `Resolver` (c-ares, not the OS's getaddrinfo): the
 * servers are configuration (DNS_SERVERS; the system's by default), every attempt has a timeout,
 * and a stop cancels what is in flight.
 */
import { Resolver } from 'node:dns/promises';
import type { DnsSettings } from '../../config.js';

/**
 * An answer (NXDOMAIN and NODATA are answers: `records` is empty) or no usable answer (`code`:
 * ETIMEOUT, ESERVFAIL, EREFUSED, ECONNREFUSED, ECANCELLED when stopped, …).
 */
export type TxtAnswer = { kind: 'records'; records: string[] } | { kind: 'error'; code: string };

export type TxtLookup = (name: string, signal?: AbortSignal) => Promise<TxtAnswer>;

// c-ares' codes for "the name has no TXT record" and "the name does not exist"
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/** A TXT lookup over the configured servers; each record's character-strings are joined (RFC 7208 §3.3 style). */
export function createTxtLookup(settings: DnsSettings): TxtLookup {
  return async (name, signal) => {
    const resolver = new Resolver({ timeout: settings.timeoutMs, tries: settings.tries });
    if (settings.servers) resolver.setServers(settings.servers);
    if (signal?.aborted) return { kind: 'error', code: 'ECANCELLED' };
    const cancel = () => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const records = await resolver.resolveTxt(name);
      return { kind: 'records', records: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      return NO_RECORDS.has(code) ? { kind: 'records', records: [] } : { kind: 'error', code };
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  };
}
