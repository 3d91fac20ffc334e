import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createHttpServer } from './http-server.js';
import { stopNetworkGuardForRawSockets } from '../../test/helpers/network-guard.js';

// Raw sockets from 127.0.0.x, watched until the server closes them: the stray-network guard's
// socket interception would connect them from 127.0.0.1 and hide their close (no outbound
// request is made here).
stopNetworkGuardForRawSockets();

const LIMITS = { headersTimeoutMs: 4000, requestTimeoutMs: 6000, keepAliveTimeoutMs: 3000, maxConnections: 3, maxConnectionsPerIp: 2 };

describe('createHttpServer', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function start(trusted: string | null): Promise<{ port: number; warnings: string[]; server: Server }> {
    const warnings: string[] = [];
    const server = createHttpServer((_req, res) => res.end('ok'), LIMITS, {
      isTrustedProxy: (address) => address === trusted,
      logger: { warn: (message: string) => warnings.push(message) },
      reportEveryMs: 200,
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, warnings, server };
  }

  /** Opens `n` sockets from `localAddress`; answers how many the server closed within a moment. */
  async function closedOf(port: number, localAddress: string, n: number): Promise<number> {
    let closed = 0;
    for (let i = 0; i < n; i++) {
      const socket = connect({ host: '127.0.0.1', port, localAddress });
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => closed++);
      await once(socket, 'connect');
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    return closed;
  }

  /** Sends `raw` on a new socket and answers everything the server wrote before closing it. */
  async function rawExchange(port: number, raw: string): Promise<string> {
    const socket = connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(raw);
    await once(socket, 'close');
    return Buffer.concat(chunks).toString('utf8');
  }

  it('answers a request its parser refuses (headers too large, malformed) with a JSON detail, as every other refusal', async () => {
    const { port } = await start(null);
    const tooLarge = await rawExchange(port, `GET /?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(tooLarge).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(tooLarge.slice(tooLarge.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'Request Header Fields Too Large' });
    const malformed = await rawExchange(port, 'NOT A REQUEST\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(malformed.slice(malformed.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'Bad Request' });
  });

  it('sets the configured timeouts', async () => {
    const { server } = await start(null);
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.maxConnections]).toEqual([4000, 6000, 3000, 3]);
  });

  it('closes the sockets of an address past the per-address cap, and summarises the refusals in one log line', async () => {
    const { port, warnings } = await start(null);
    expect(await closedOf(port, '127.0.0.4', 4)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warnings).toEqual(['http: refused sockets in the last 0.2 s: 2 past HTTP_MAX_CONNECTIONS_PER_IP from 1 address(es), most from 127.0.0.4 (2)']);
  });

  it('exempts a trusted proxy from the per-address cap, not from the overall one', async () => {
    const { port, warnings } = await start('127.0.0.5');
    expect(await closedOf(port, '127.0.0.5', 5)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warnings).toEqual(['http: refused sockets in the last 0.2 s: 2 past HTTP_MAX_CONNECTIONS']);
  });
});
