/**
 * Every dynamically registered client is public (PKCE protects its codes), yet clients send
 * their `client_id` in the ways RFC 6749 allows for confidential ones: in the form body with a
 * `client_secret` (client_secret_post) or in an HTTP Basic header (client_secret_basic). Before
 * oidc-provider authenticates a token or revocation request, this rewrites those into the public
 * form it expects for a `none` client: `client_id` in the body, no secret, no Basic header. The
 * secret is never read, logged or compared.
 *
 * oidc-provider reads the body from the request stream itself, so the rewritten request is
 * handed to it as a new IncomingMessage over the same socket, carrying the new body.
 *
 * Having read the body, it also refuses a `resource` this server does not serve (400
 * `invalid_target`) before oidc-provider sees the request: oidc-provider consumes an authorization
 * code (or refresh token) before it checks the resource, so the client's retry with the right one
 * would be taken for a replay and revoke the grant. A refused request consumes nothing.
 */
import { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

/** oidc-provider's own body limit. */
const MAX_BODY_BYTES = 56 * 1024;

type Handler = (req: IncomingMessage, res: Response) => unknown;

/**
 * Wraps oidc-provider's handler (mounted at the OAuth path): POST `paths` get their client
 * authentication rewritten; every other request goes to it unchanged.
 */
export function acceptPublicClientCredentials(handler: Handler, paths: string[], resources: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST' || !paths.includes(req.path) || !isForm(req)) return void handler(req, res);
    readBody(req)
      .then((body) => {
        const unknown = new URLSearchParams(body).getAll('resource').find((resource) => !resources.includes(resource));
        if (unknown !== undefined) {
          res.status(400).json({ error: 'invalid_target', error_description: `unknown resource ${unknown}; this server issues tokens for ${resources.join(', ')}` });
          return;
        }
        const rewritten = rewrite(body, req.header('authorization'));
        if ('error' in rewritten) {
          res.status(400).json({ error: 'invalid_request', error_description: rewritten.error });
          return;
        }
        const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(rewritten.body)) };
        if (rewritten.dropAuthorization) delete headers.authorization;
        handler(replay(req, headers, rewritten.body), res);
      })
      .catch((error: { status?: number; message?: string }) => {
        if (error?.status !== 413) return next(error);
        res.status(413).json({ error: 'invalid_request', error_description: 'request body too large' });
      });
  };
}

/** Basic client_id -> body; client_secret dropped. Other Authorization schemes are left to oidc-provider. */
function rewrite(body: string, authorization: string | undefined): { body: string; dropAuthorization: boolean } | { error: string } {
  const params = new URLSearchParams(body);
  let dropAuthorization = false;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    let clientId: string;
    try {
      // RFC 6749 §2.3.1: the id is form-urlencoded before it is base64-encoded
      clientId = decodeURIComponent((colon === -1 ? decoded : decoded.slice(0, colon)).replace(/\+/g, '%20'));
    } catch {
      return { error: 'the client_id in the Basic authorization header is not properly encoded' };
    }
    if (!clientId) return { error: 'the Basic authorization header carries no client_id' };
    const inBody = params.get('client_id');
    if (inBody !== null && inBody !== clientId) return { error: 'client_id mismatch between the Basic authorization header and the body' };
    params.set('client_id', clientId);
    dropAuthorization = true;
  }
  params.delete('client_secret');
  return { body: params.toString(), dropAuthorization };
}

function isForm(req: Request): boolean {
  return (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

async function readBody(req: Request): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('request entity too large'), { status: 413, expose: true });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request identical to `req` (socket, method, URL, mount path) but with these headers and body. */
function replay(req: Request, headers: IncomingMessage['headers'], body: string): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.headers = headers;
  // oidc-provider derives its mount path from these (express sets them on mounted requests)
  Object.assign(copy, { originalUrl: req.originalUrl, baseUrl: req.baseUrl });
  copy.push(Buffer.from(body));
  copy.push(null);
  // the whole message is there: without this, ending the copy would abort the shared socket
  copy.complete = true;
  return copy;
}
