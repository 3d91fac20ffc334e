/**
 * The dashboard's index.html (src/http/dashboard.ts serves it for every page path): read once per
 * build (its mtime) with the server's settings written in (`<meta name="dashboard-config">`) and
 * compressed then (Brotli, gzip), since every cold load of a page asks for it first; no-cache,
 * with the page's security headers. A request whose session cookie names a live session gets the
 * copy with `<meta name="dashboard-session" content="live">`: the page then sends its first data
 * beside the session check (src/dashboard/app/first-load.ts).
 */
import type { Request, Response } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const LIVE_SESSION_META = '<meta name="dashboard-session" content="live" />';

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head><body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build:dashboard</code> (or <code>npm start</code>, which builds it when missing), then reload.</p></main></body></html>';

/** What the page needs from the door's settings (DashboardSettings in dashboard.ts describes each). */
export interface IndexPageSettings {
  dir: string;
  client: object;
  sessionIsLive?: (cookieHeader: string | undefined, ip: string | null) => Promise<boolean>;
}

interface Copy {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function compressed(text: string): Copy {
  const html = Buffer.from(text);
  const br = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } });
  return { html, br, gzip: gzipSync(html, { level: 9 }) };
}

/** The handler that answers index.html (503 with how to build it when the build is missing). */
export function indexPageSender(settings: IndexPageSettings): (req: Request, res: Response) => Promise<void> {
  const indexFile = path.join(settings.dir, 'index.html');
  const meta = `<meta name="dashboard-config" content="${escapeAttribute(JSON.stringify(settings.client))}" />`;
  // one copy without, one with the live-session mark
  let cached: { mtimeMs: number; copies: [Copy, Copy] } | null = null;
  const indexHtml = (liveSession: boolean): Copy | null => {
    if (!existsSync(indexFile)) return null;
    const { mtimeMs } = statSync(indexFile);
    if (!cached || cached.mtimeMs !== mtimeMs) {
      const text = readFileSync(indexFile, 'utf8');
      cached = {
        mtimeMs,
        copies: [compressed(text.replace('<!--dashboard-config-->', meta)), compressed(text.replace('<!--dashboard-config-->', `${meta}\n    ${LIVE_SESSION_META}`))],
      };
    }
    return cached.copies[liveSession ? 1 : 0];
  };
  const liveSession = async (req: Request): Promise<boolean> => {
    if (!settings.sessionIsLive) return false;
    // the mark only lets the page ask sooner: a failed check leaves it out, never fails the page
    return settings.sessionIsLive(req.header('cookie'), req.ip ?? null).catch(() => false);
  };

  return async (req, res) => {
    const html = indexHtml(await liveSession(req));
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', CSP);
    if (!html) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    const accepts = req.header('accept-encoding') ?? '';
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    res.setHeader('Vary', 'Accept-Encoding, Cookie');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.type('html').send(encoding ? html[encoding] : html.html);
  };
}
