/**
 * The public front door: GET / answers the landing page (landing-html.ts) to everyone, signed in
 * or not (a signed-in visitor gets "Go to your dashboard"; deciding by the session keeps the mail
 * and bookmark links to / working for both). GET /landing-search.js is its only script, the
 * example search, served only when the Anonymous plan is on.
 *
 * Mounted after the request authentication, so the page knows who asks and reads the figures
 * through the same service call as GET /v1/stats.
 */
import express from 'express';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contextOf } from './request-context.js';
import type { LegalDataApi } from '../modules/legal-data/legal-data.port.js';
import { PLANS } from '../modules/usage/plans.js';
import { landingHtml } from './landing-html.js';
import type { Logger } from '../logger.js';

export interface LandingSettings {
  baseUrl: string;
  /** ALLOW_ANONYMOUS. */
  anonymousSearch: boolean;
  /** Where the terms and the privacy notice are read. */
  legal: { terms: string; privacy: string };
}

/** The landing page's own policy: the dashboard's, with its inline stylesheet. */
const LANDING_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

const SEARCH_SCRIPT = readFileSync(fileURLToPath(new URL('./landing-search.js', import.meta.url)), 'utf8');

export function landingRouter(legalData: LegalDataApi, settings: LandingSettings, logger: Pick<Logger, 'error'>): express.Router {
  const router = express.Router();
  const { perDay, perMinute } = PLANS.anonymous;
  router.get('/', async (req, res) => {
    const ctx = contextOf(req);
    // the page is the front door: a catalogue that cannot be read leaves the figures out, not the page
    const stats = await legalData.stats(ctx).catch((error: unknown) => {
      logger.error('landing page: the statistics could not be read', error);
      return null;
    });
    res.setHeader('Content-Security-Policy', LANDING_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Cookie');
    res
      .type('html')
      .send(
        landingHtml({
          baseUrl: settings.baseUrl,
          stats,
          anonymousSearch: settings.anonymousSearch,
          anonymousLimits: { perDay: perDay ?? perMinute, perMinute },
          signedIn: ctx.caller.kind !== 'anonymous',
          legal: settings.legal,
        }),
      );
  });
  if (settings.anonymousSearch) {
    router.get('/landing-search.js', (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type('text/javascript').send(SEARCH_SCRIPT);
    });
  }
  return router;
}
