/**
 * The key per-address limits count a client under (open sockets, open SSE streams): an IPv4
 * address as it is, an IPv4-mapped IPv6 address as its IPv4 address, and any other IPv6 address
 * by its /64 prefix. One subscriber or host usually holds a whole /64 (RFC 6177 assigns at least
 * that much per site), so counting full IPv6 addresses would give one client 2^64 budgets.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The per-address limit key of `address` (`'unknown'` when there is none). */
export function clientAddressKey(address: string | null | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  const withoutZone = address.split('%')[0]!;
  if (!isIPv6(withoutZone)) return address;
  return `${expandIPv6(withoutZone).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of a valid IPv6 address, without leading zeros (`2001:db8::1` -> 2001, db8, 0, ..., 1). */
function expandIPv6(address: string): string[] {
  const toHextets = (part: string): string[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      // an embedded IPv4 tail (64:ff9b::192.0.2.1) is two hextets
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = toHextets(head);
  const right = tail === undefined ? [] : toHextets(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((h) => parseInt(h, 16).toString(16));
}
