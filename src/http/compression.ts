/**
 * Compressed answers: `compression` (the maintained express middleware: Brotli, gzip, deflate
 * negotiated from Accept-Encoding, Brotli preferred) on every response of 1 KiB or more whose type
 * is compressible (JSON, the OpenAPI document, GraphQL), with three exceptions:
 *
 * - event streams (`text/event-stream`: /sse, and /mcp when it answers with a stream) are never
 *   compressed, since a compressor holds bytes back until it has enough, and an event must reach
 *   the client when it is written;
 * - the dashboard's files keep their own handling (src/http/dashboard.ts sends the build's
 *   Brotli/gzip copies of its assets);
 * - a response that says `Cache-Control: no-transform` (compression's own rule).
 *
 * A strong ETag names one representation (RFC 9110 §8.8.3): when the body is compressed, its tag
 * gets the coding as a suffix (`"abc"` -> `"abc-br"`), so a cache never mixes the two; the
 * routes that compare tags accept either form (`matchingEntityTag`).
 */
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { DASHBOARD_PATH } from './dashboard.js';

/** Bodies smaller than this go out as they are: below it the framing costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

const EVENT_STREAM = /^\s*text\/event-stream/i;

/** The middleware the module comment describes; mount it before every route it should cover. */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: (req: Request, res: Response) => {
      const type = String(res.getHeader('Content-Type') ?? '');
      if (EVENT_STREAM.test(type)) return false;
      if (req.originalUrl === DASHBOARD_PATH || req.originalUrl.startsWith(`${DASHBOARD_PATH}/`)) return false;
      return compression.filter(req, res);
    },
  });
  return (req, res, next) => {
    // installed before compression's own hook, so it runs after compression chose the coding
    tagCodingOnWrite(res);
    compress(req, res, next);
  };
}

/** Appends the content coding to a strong ETag just before the headers go out. */
function tagCodingOnWrite(res: Response): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    const coding = res.getHeader('Content-Encoding');
    const etag = res.getHeader('ETag');
    if (typeof coding === 'string' && coding !== 'identity' && typeof etag === 'string' && /^"[^"]*"$/.test(etag)) {
      res.setHeader('ETag', `${etag.slice(0, -1)}-${coding}"`);
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
}

/**
 * The entity tag the client sent (`If-None-Match`) that names the representation tagged `etag`
 * (unquoted opaque part) in any of its codings, as a strong tag (`"abc-gzip"`), or null: weak
 * comparison, as If-None-Match uses (RFC 9110 §13.1.2), with the coding suffix
 * `tagCodingOnWrite` adds taken off. A 304 sends it back: it names the copy the client holds.
 */
export function matchingEntityTag(ifNoneMatch: string | undefined, etag: string): string | null {
  if (!ifNoneMatch) return null;
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return `"${etag}"`;
    const opaque = tag.replace(/^"|"$/g, '');
    if (opaque.replace(/-(br|gzip|deflate)$/, '') === etag) return `"${opaque}"`;
  }
  return null;
}
