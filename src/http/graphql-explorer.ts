/**
 * GET /graphql from a browser (an HTML page asked for, no operation in the URL) answers the query
 * explorer: GraphiQL, built with the dashboard (dist/dashboard/explorer.html, its assets under
 * /dashboard/assets/), so the page works offline; Apollo's own landing page, which loads from a
 * CDN, is off (src/graphql/gateway.ts). Every other /graphql request (POST, a GET carrying an
 * operation or a persisted-query hash, a client asking for JSON) goes on to the gateway.
 *
 * Its Content-Security-Policy is the dashboard's plus one source: GraphiQL's stylesheet carries
 * its fonts as `data:` URLs, so `font-src` allows `data:` on this page alone. Scripts, styles and
 * connections stay `'self'`: the page sends operations to this origin only.
 */
import type { Request, RequestHandler } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const EXPLORER_CSP =
  "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

export interface GraphqlExplorerSettings {
  /** The dashboard's build output (dist/dashboard), which holds explorer.html. */
  dir: string;
  /** GRAPHQL_INTROSPECTION: when off, the explorer does not ask for the schema and says it is not published. */
  introspection: boolean;
}

/** Query parameters that make a GET an operation for the gateway (GraphQL over HTTP, Apollo's APQ). */
const OPERATION_PARAMETERS = ['query', 'extensions', 'operationName', 'variables'];

/** True for a browser's page load: it prefers HTML to JSON and names no operation. */
function wantsExplorer(req: Request): boolean {
  if (OPERATION_PARAMETERS.some((name) => name in req.query)) return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The GET /graphql handler serving the explorer page to browsers; everything else passes on. */
export function graphqlExplorer(settings: GraphqlExplorerSettings): RequestHandler {
  const file = path.join(settings.dir, 'explorer.html');
  const config = { endpoint: '/graphql', introspection: settings.introspection };
  const meta = `<meta name="explorer-config" content="${escapeAttribute(JSON.stringify(config))}" />`;
  let cached: { mtimeMs: number; html: string } | null = null;
  const page = (): string | null => {
    if (!existsSync(file)) return null;
    const { mtimeMs } = statSync(file);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(file, 'utf8').replace('<!--explorer-config-->', meta) };
    return cached.html;
  };

  return (req, res, next) => {
    if (req.method !== 'GET' || !wantsExplorer(req)) return next();
    res.setHeader('Content-Security-Policy', EXPLORER_CSP);
    res.setHeader('Vary', 'Accept');
    const html = page();
    if (!html) {
      res
        .status(503)
        .type('html')
        .send(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Explorer not built</title></head><body><main><h1>The GraphQL explorer is not built</h1><p>Run <code>npm run build:dashboard</code>, then reload. Operations are served here by <code>POST</code>.</p></main></body></html>',
        );
      return;
    }
    res.type('html').send(html);
  };
}
