/**
 * The web dashboard's door: the built single-page app (dist/dashboard, `npm run build:dashboard`)
 * at /dashboard. Hashed assets are cached for a year (sent Brotli- or gzip-compressed from the build's copies); every other path under /dashboard answers
 * index.html (deep links work; no-cache, compressed once per build), with the server's settings the dashboard needs (sign-in methods,
 * billing on or off) in a <meta name="dashboard-config"> tag. The paths account mails link to
 * (/reset-password, /verify-email, /legal-acceptance) redirect into the dashboard; `/` is the
 * public landing page (landing-page.ts).
 * Without a build, /dashboard says how to make one (503) instead of failing.
 */
import express, { type Request, type Response } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface DashboardSettings {
  /** The build output (index.html + assets/). */
  dir: string;
  /**
   * What the dashboard shows or hides: configured identity providers, dev-login, billing; and the
   * rules it checks before sending (the password's minimum length, the server's own constant).
   */
  client: {
    identityProviders: string[];
    devLogin: boolean;
    billing: boolean;
    baseUrl: string;
    termsVersion: string;
    passwordMinLength: number;
    /** Where the terms, the privacy notice and the data processing agreement are read. */
    legal?: { terms: string; privacy: string; dataProcessing: string };
    /** ALLOW_ANONYMOUS: the landing page's example search runs without an account. */
    anonymousSearch?: boolean;
  };
  /**
   * Whether the request's session cookie names a live session (src/app.ts asks the accounts'
   * session check; no other credential counts). A page opened with one says so in
   * `<meta name="dashboard-session" content="live">`, and sends its first data beside the session
   * check instead of after it (src/dashboard/app/first-load.ts).
   */
  sessionIsLive?: (cookieHeader: string | undefined, ip: string | null) => Promise<boolean>;
}

const LIVE_SESSION_META = '<meta name="dashboard-session" content="live" />';

export const DASHBOARD_PATH = '/dashboard';

/** Paths that account e-mails and identity-provider sign-ins send people to, served by dashboard pages of the same name. */
const MAIL_LANDING_PATHS = ['/reset-password', '/verify-email', '/legal-acceptance'];

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function dashboardRouter(settings: DashboardSettings): express.Router {
  const router = express.Router();
  const indexFile = path.join(settings.dir, 'index.html');
  const meta = `<meta name="dashboard-config" content="${escapeAttribute(JSON.stringify(settings.client))}" />`;
  // index.html is read once per build (its mtime), with the configuration written in, and
  // compressed then (every cold load asks for it first): one copy without, one with the live-session mark
  type Copy = { html: Buffer; br: Buffer; gzip: Buffer };
  let cached: { mtimeMs: number; copies: [Copy, Copy] } | null = null;
  const compressed = (text: string): Copy => {
    const html = Buffer.from(text);
    const br = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } });
    return { html, br, gzip: gzipSync(html, { level: 9 }) };
  };
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

  for (const landing of MAIL_LANDING_PATHS) {
    router.get(landing, (req, res) => {
      const query = req.originalUrl.slice(req.path.length);
      res.redirect(302, `${DASHBOARD_PATH}${landing}${query}`);
    });
  }

  const assetsDir = path.join(settings.dir, 'assets');
  // the build's Brotli / gzip copies (vite.config.ts) when the browser accepts them
  router.get(`${DASHBOARD_PATH}/assets/{*file}`, (req, res, next) => {
    const name = path.basename(req.path);
    const file = path.join(assetsDir, name);
    const accepts = req.header('accept-encoding') ?? '';
    const encoding = /\bbr\b/.test(accepts) && existsSync(`${file}.br`) ? 'br' : /\bgzip\b/.test(accepts) && existsSync(`${file}.gz`) ? 'gzip' : null;
    if (!encoding || !existsSync(file)) return next();
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Vary', 'Accept-Encoding');
    res.type(path.extname(name));
    res.sendFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`, { immutable: true, maxAge: '365d', headers: { 'Content-Type': res.get('Content-Type')! } });
  });
  router.use(`${DASHBOARD_PATH}/assets`, express.static(assetsDir, { immutable: true, maxAge: '365d', index: false, fallthrough: false }));

  const sendIndex = async (req: Request, res: Response) => {
    const html = indexHtml(await liveSession(req));
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    if (!html) {
      res
        .status(503)
        .type('html')
        .send(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head><body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build:dashboard</code> (or <code>npm start</code>, which builds it when missing), then reload.</p></main></body></html>',
        );
      return;
    }
    const accepts = req.header('accept-encoding') ?? '';
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    res.setHeader('Vary', 'Accept-Encoding, Cookie');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.type('html').send(encoding ? html[encoding] : html.html);
  };
  router.get(DASHBOARD_PATH, (req, res, next) => {
    if (!req.path.endsWith('/')) {
      res.redirect(301, `${DASHBOARD_PATH}/`);
      return;
    }
    sendIndex(req, res).catch(next);
  });
  router.get(`${DASHBOARD_PATH}/{*rest}`, (req, res, next) => void sendIndex(req, res).catch(next));
  return router;
}
