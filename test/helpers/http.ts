/** Small HTTP helpers for end-to-end tests: JSON calls that keep status, headers and body. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Serves `app` on an ephemeral loopback port; returns its base URL and a close function. */
export async function serve(app: Express): Promise<{ base: string; server: Server; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}
export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
}

/** Sends a request with an optional JSON body; `auth` is an API key (Bearer) or a Cookie header value. */
export async function call(
  url: string,
  method: string,
  body?: unknown,
  auth?: { key?: string; cookie?: string; headers?: Record<string, string> },
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(auth?.headers ?? {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (auth?.key) headers.authorization = `Bearer ${auth.key}`;
  if (auth?.cookie) headers.cookie = auth.cookie;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The `name=value` of a Set-Cookie header for `name` (what a browser would send back). */
export function cookieFrom(headers: Headers, name: string): string | null {
  const set = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return set ? set.split(';')[0]! : null;
}

/** A TCP port free at the time of asking (for a platform whose BASE_URL must be known before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
