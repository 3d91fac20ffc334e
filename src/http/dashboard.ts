/**
 * The web dashboard's door: the built single-page app (dist/dashboard, `npm run build:dashboard`)
 * at /dashboard. Hashed assets are cached for a year (sent Brotli- or gzip-compressed from the build's copies); every other path under /dashboard answers
 * index.html (deep links work; no-cache, compressed once per build), with the server's settings the dashboard needs (sign-in methods,
 * billing on or off) in a <meta name="dashboard-config"> tag. The paths account mails link to
 * (/reset-password, /verify-email, /legal-acceptance) redirect into the dashboard; `/` is the
 * public landing page (landing-page.ts).
 * Without a build, /dashboard says how to make one (503) instead of failing.
 */
import express from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { indexPageSender } from './dashboard-index.js';

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

export const DASHBOARD_PATH = '/dashboard';

/** Paths that account e-mails and identity-provider sign-ins send people to, served by dashboard pages of the same name. */
const MAIL_LANDING_PATHS = ['/reset-password', '/verify-email', '/legal-acceptance'];

export function dashboardRouter(settings: DashboardSettings): express.Router {
  const router = express.Router();
  const sendIndex = indexPageSender(settings);

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
