/**
 * At most N open sockets per peer address, counted at the socket level (the 'connection' event,
 * `socket.remoteAddress`): a socket past the cap is destroyed at once, before any byte of it is
 * read, so a flood of slow requests from one client costs the process N sockets, not thousands.
 *
 * The peer of a socket is the address that connected: behind a proxy, the proxy's. A proxy
 * speaks for many clients, so a trusted proxy's address (TRUST_PROXY) is exempt and the proxy
 * must bound connections per client itself (deploy/nginx.conf: `limit_conn`). The per-client
 * limits that see through the proxy (the SSE caps, the plans) key on `req.ip` instead.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressKey } from '../util/client-address.js';

/**
 * Counts `server`'s open sockets per peer address (an IPv6 peer by its /64) and destroys those
 * past `max`; `exempt` peers are not counted; `onRefused` hears of each refused socket's key.
 */
export function limitConnectionsPerAddress(
  server: Server,
  options: { max: number; exempt: (address: string) => boolean; onRefused?: (key: string) => void },
): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address && options.exempt(address)) return;
    const key = clientAddressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= options.max) {
      socket.destroy();
      options.onRefused?.(key);
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
