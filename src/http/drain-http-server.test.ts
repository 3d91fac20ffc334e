/** The HTTP drain on a real node:http server and real client sockets. */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainable } from './drain-http-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose answers take `delayMs`; `/forever` never answers. */
async function slowServer(delayMs: number) {
  const server = http.createServer((req, res) => {
    if (req.url === '/forever') return;
    setTimeout(() => res.end('done'), delayMs);
  });
  const drain = drainable(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, drain, port: (server.address() as AddressInfo).port };
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(port: number, path: string, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('drainable(server).drain(deadline)', () => {
  it('answers the requests in flight (asking keep-alive clients to close), refuses new connections, and resolves before the deadline', async () => {
    const { server, drain, port } = await slowServer(300);
    const agent = new http.Agent({ keepAlive: true });
    try {
      // a keep-alive connection that has already served a request and is idle, and one busy
      expect(await get(port, '/', agent)).toMatchObject({ status: 200, connection: 'keep-alive' });
      const inFlight = get(port, '/', agent);
      await sleep(100);
      const started = Date.now();
      const drained = drain.drain(10_000);
      await expect(get(port, '/', false)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'done' });
      expect(await drained).toEqual({ cut: 0 });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(server.listening).toBe(false);
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });

  it('closes the connections still open at the deadline and says how many', async () => {
    const { server, drain, port } = await slowServer(0);
    const outcomes = [get(port, '/forever', false), get(port, '/forever', false)].map((p) => p.then(() => 'answered', (error: NodeJS.ErrnoException) => error.code));
    await sleep(100);
    const started = Date.now();
    expect(await drain.drain(500)).toEqual({ cut: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(await Promise.all(outcomes)).toEqual(['ECONNRESET', 'ECONNRESET']);
    expect(server.listening).toBe(false);
  });
});
