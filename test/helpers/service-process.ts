/**
 * The service as a real OS process (`src/main.ts` under tsx, as `npm start` runs it), for tests
 * of several processes sharing PostgreSQL, Redis and a search engine. The child gets only the
 * environment the test gives it (plus PATH, HOME and TMPDIR): the developer's settings never
 * leak in. Its log lines (pino's JSON on stderr) are kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './http.js';
import { STRAY_REQUEST_MARKER } from './network-guard.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Every line the process wrote, as written. */
  lines: string[];
  /** The messages of its log lines (`msg` of pino's JSON; other lines as written). */
  messages(): string[];
  /** Resolves with the first message matching `pattern`; rejects after `timeoutMs` or when the process exits. */
  waitForMessage(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Resolves once /health answers; rejects when the process exits first or after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
  /**
   * SIGTERM (a clean shutdown), SIGKILL when it has not exited after `graceMs`. Safe to call twice.
   * Then throws when the service made a request to a non-loopback host (the network guard blocked
   * it and logged it), so the test that started it fails.
   */
  stop(graceMs?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function messageOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown };
    return typeof parsed.msg === 'string' ? parsed.msg : line;
  } catch {
    return line;
  }
}

/**
 * Starts the service with `env` on a free port. Returns at once (keep the handle to stop it
 * whatever happens next); `ready()` waits for it.
 */
export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const inherited = Object.fromEntries(['PATH', 'HOME', 'TMPDIR'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
  // The stray-network guard of the jest tests, in the child too (see network-guard.preload.ts).
  const child = spawn(`${ROOT}node_modules/.bin/node`, ['--import', 'tsx', '--import', './test/helpers/network-guard.preload.ts', 'src/main.ts'], {
    cwd: ROOT,
    // No APOLLO_TELEMETRY_DISABLED: the service turns the gateway's telemetry off itself
    // (GRAPHQL_VENDOR_TELEMETRY), and the guard above fails the test if it ever does not.
    env: { ...inherited, LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (data: Buffer) => lines.push(...data.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.on('error', (error) => lines.push(`spawn failed: ${error.message}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const messages = () => lines.map(messageOf);

  const service: ServiceProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    lines,
    messages,
    async waitForMessage(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages().find((m) => pattern.test(m));
        if (found !== undefined) return found;
        if (!running()) throw new Error(`service exited (${child.exitCode ?? child.signalCode}) before logging ${pattern}:\n${lines.slice(-20).join('\n')}`);
        if (Date.now() > deadline) throw new Error(`no log line matching ${pattern} after ${timeoutMs / 1000} s:\n${lines.slice(-20).join('\n')}`);
        await sleep(200);
      }
    },
    async stop(graceMs = 20_000) {
      if (running()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      const strays = lines.filter((line) => line.startsWith(STRAY_REQUEST_MARKER));
      if (strays.length > 0) throw new Error(`the service made stray outbound request(s), blocked by the network guard:\n${strays.join('\n')}`);
    },
    async ready(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!running()) throw new Error(`service exited (${child.exitCode ?? child.signalCode}) while starting:\n${lines.slice(-20).join('\n')}`);
        try {
          if ((await fetch(`${service.url}/health`, { signal: AbortSignal.timeout(10_000) })).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`service did not answer /health within ${timeoutMs / 1000} s:\n${lines.slice(-20).join('\n')}`);
        await sleep(250);
      }
    },
  };
  return service;
}

