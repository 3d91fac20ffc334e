/**
 * The stray-network guard that jest puts around every test file (test/network-guard.setup.ts):
 * a request to a non-loopback host fails with an error naming the host, through each client the
 * code uses (fetch, node:http, node:https), while loopback requests pass through untouched. The
 * stray target is `.invalid` (RFC 2606: never resolves), so nothing could leave the machine even
 * if the guard were off.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isLoopbackHost, STRAY_REQUEST_MARKER, takeStrayRequests } from './helpers/network-guard.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const STRAY = 'http://stray.invalid/v1/anything';

/** Sends a GET with node:http or node:https and resolves with the status, or rejects with the request's error. */
function nodeGet(client: typeof http | typeof https, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = client.get(url, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
  });
}

describe('the stray-network guard', () => {
  let local: http.Server;
  let localPort: number;

  beforeAll(async () => {
    local = http.createServer((_req, res) => res.end('local'));
    local.listen(0, '127.0.0.1');
    await once(local, 'listening');
    localPort = (local.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => local.close(resolve)));
  // The guard's own afterEach would fail these tests for the strays they make on purpose.
  afterEach(() => void takeStrayRequests());

  it('fails fetch to a non-loopback host with an error naming the host', async () => {
    const failure = await fetch(STRAY).then(() => null, (error: unknown) => error as Error & { cause?: unknown });
    // undici's own "fetch failed" TypeError (from the outer realm: matched by name); it wraps the
    // guard's error into a plain Error with the same text as its cause.
    expect(failure?.name).toBe('TypeError');
    expect(String(failure!.cause)).toContain(`StrayRequestError: stray outbound request blocked by the test network guard: stray.invalid (${STRAY})`);
    expect(takeStrayRequests()).toEqual([STRAY]);
  });

  it('fails node:http and node:https requests to a non-loopback host', async () => {
    await expect(nodeGet(http, STRAY)).rejects.toThrow(/network guard: stray\.invalid/);
    await expect(nodeGet(https, 'https://stray.invalid:8443/x')).rejects.toThrow(/network guard: stray\.invalid:8443/);
    expect(takeStrayRequests()).toEqual([STRAY, 'https://stray.invalid:8443/x']);
  });

  it('lets requests to loopback servers through untouched', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const response = await fetch(`http://${host}:${localPort}/`);
      expect({ host, status: response.status, body: await response.text() }).toEqual({ host, status: 200, body: 'local' });
    }
    expect(await nodeGet(http, `http://127.0.0.1:${localPort}/`)).toBe(200);
    expect(takeStrayRequests()).toEqual([]);
  });

  it('fails a test whose code swallowed the error of a stray request', async () => {
    // A jest of its own on a fixture that catches the error and carries on: the setup's afterEach fails it.
    const jest = `${ROOT}node_modules/.bin/node --experimental-vm-modules node_modules/jest/bin/jest.js --runInBand --testMatch '**/test/fixtures/network-guard/swallowed-stray.fixture.ts'`;
    const run = await promisify(execFile)('sh', ['-c', `${jest} 2>&1`], { cwd: ROOT }).then(
      ({ stdout }) => ({ failed: false, output: stdout }),
      (error: { stdout: string }) => ({ failed: true, output: error.stdout }),
    );
    expect(run.failed).toBe(true);
    expect(run.output).toContain('✕ swallows the error of a stray request');
    expect(run.output).toContain('the test made 1 stray outbound request(s), blocked by the network guard:\n      http://swallowed.invalid/');
  });

  it('guards a child process started with the preload, as the spawned service is', async () => {
    // The same `--import`s as test/helpers/service-process.ts; the script reports what its fetch did.
    const script = `fetch(${JSON.stringify(STRAY)}).then(() => console.log('sent'), (e) => console.log('failed:', String(e.cause)))`;
    const { stdout, stderr } = await promisify(execFile)(`${ROOT}node_modules/.bin/node`, ['--import', 'tsx', '--import', './test/helpers/network-guard.preload.ts', '--input-type=module', '-e', script], { cwd: ROOT });
    expect(stdout.trim()).toBe(`failed: StrayRequestError: stray outbound request blocked by the test network guard: stray.invalid (${STRAY}); tests may only call local servers`);
    expect(stderr).toContain(`${STRAY_REQUEST_MARKER} ${STRAY}\n`);
  });

  it('counts only loopback names as local', () => {
    expect(['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::ffff:127.0.0.1'].filter(isLoopbackHost)).toHaveLength(5);
    expect(['stray.invalid', '10.0.0.1', '0.0.0.0', '[::]', 'localhost.example', '128.0.0.1', 'api.stripe.com'].filter(isLoopbackHost)).toEqual([]);
  });
});
