/**
 * Draining the HTTP server at shutdown: stop accepting, let the requests already taken finish,
 * and cut whatever is still open at a deadline. `server.close()` alone is not enough: it waits
 * for every connection, and a keep-alive client that keeps sending requests on its socket (or a
 * client that sends its body slowly) would hold the process for as long as it likes.
 */
import type { Server, ServerResponse } from 'node:http';

export interface DrainableServer {
  /**
   * Stops accepting connections, answers the requests in flight (each with `Connection: close`
   * so keep-alive clients go elsewhere), closes idle sockets, and after `deadlineMs` closes the
   * sockets still open. Resolves with how many it had to close that way.
   */
  drain(deadlineMs: number): Promise<{ cut: number }>;
}

/** How often sockets that went idle during the drain (their answer sent) are closed. */
const IDLE_SWEEP_MS = 100;

/** Tracks the responses of `server` so that a later `drain()` can ask each to close its connection. */
export function drainable(server: Server): DrainableServer {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // First listener: runs before express sees the request.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) {
      res.setHeader('Connection', 'close');
      return;
    }
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  return {
    async drain(deadlineMs) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
      try {
        if ((await Promise.race([closed, deadline])) !== 'deadline') return { cut: 0 };
        const cut = await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
        server.closeAllConnections();
        await closed;
        return { cut };
      } finally {
        clearInterval(sweep);
        clearTimeout(timer);
      }
    },
  };
}
