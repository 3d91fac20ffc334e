/** The REST error mapper and body parser, over real HTTP. */
import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { z } from 'zod';
import { DomainError, ValidationError, type ErrorCode } from '../errors.js';
import { searchRequestSchema } from '../modules/legal-data/search.schema.js';
import { parseInput } from '../validation.js';
import { errorHandler, jsonBody, locateIssues, notFoundHandler, pythonJsonError, withLoc } from './errors.js';

function testRouter(): express.Router {
  const router = express.Router();
  router.post('/search', jsonBody({ limit: '1kb' }), async (req, res) => {
    res.json(await withLoc('body', () => parseInput(searchRequestSchema, req.body)));
  });
  router.get('/fail/:code', (req) => {
    const retry = req.query.retry ? Number(req.query.retry) : undefined;
    throw new DomainError(req.params.code as ErrorCode, `failed with ${req.params.code}`, { retryAfterSeconds: retry });
  });
  router.get('/unlocated', () => {
    throw new ValidationError([{ type: 'missing', loc: ['q'], msg: 'Field required', input: {} }]);
  });
  router.get('/items/:id', async (req, res) => {
    const schema = z.object({ id: z.string().regex(/^\d+$/), limit: z.string().optional() });
    res.json(await withLoc({ id: 'path', '*': 'query' }, () => parseInput(schema, { id: req.params.id, ...req.query })));
  });
  return router;
}

interface Running {
  base: string;
  server: Server;
}

async function start(configure: (app: express.Express) => void): Promise<Running> {
  const app = express();
  configure(app);
  app.use(testRouter());
  app.use(notFoundHandler);
  app.use(errorHandler({ error: () => undefined }));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function send(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json' };
let plain: Running;
let appWideJson: Running;

beforeAll(async () => {
  plain = await start(() => undefined);
  // what src/app.ts does: an app-wide express.json() in front of the routers
  appWideJson = await start((app) => app.use(express.json({ limit: '1mb' })));
});

afterAll(async () => {
  for (const { server } of [plain, appWideJson]) {
    server.close();
    await once(server, 'close');
  }
});

describe('domain errors', () => {
  it.each([
    ['not_found', 404],
    ['unauthorized', 401],
    ['forbidden', 403],
    ['conflict', 409],
    ['rate_limited', 429],
    ['unavailable', 503],
  ] as const)('%s -> %i {"detail": message}', async (code, status) => {
    const res = await send(plain.base, 'GET', `/fail/${code}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ detail: `failed with ${code}` });
  });

  it('401 says how to authenticate', async () => {
    expect((await send(plain.base, 'GET', '/fail/unauthorized')).headers['www-authenticate']).toBe('Bearer');
  });

  it('429 always carries Retry-After; 503 when the service gave one', async () => {
    expect((await send(plain.base, 'GET', '/fail/rate_limited?retry=29.2')).headers['retry-after']).toBe('30');
    expect((await send(plain.base, 'GET', '/fail/rate_limited')).headers['retry-after']).toBe('1');
    expect((await send(plain.base, 'GET', '/fail/unavailable?retry=5')).headers['retry-after']).toBe('5');
    expect((await send(plain.base, 'GET', '/fail/unavailable')).headers['retry-after']).toBeUndefined();
  });

  it('a ValidationError thrown outside withLoc is taken as a body error', async () => {
    expect((await send(plain.base, 'GET', '/unlocated')).body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'q'], msg: 'Field required', input: {} }],
    });
  });

  it('withLoc with a per-parameter map: path and query locs', async () => {
    const res = await send(plain.base, 'GET', '/items/abc?limit=1&limit=2');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['path', 'id'], input: 'abc' }),
      expect.objectContaining({ type: 'string_type', loc: ['query', 'limit'], input: ['1', '2'] }),
    ]);
  });

  it('undecodable path parameters are a 400, not a 500', async () => {
    const res = await send(plain.base, 'GET', '/items/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
  });
});

describe('request bodies', () => {
  for (const [name, running] of [
    ['route-level jsonBody()', () => plain],
    ['app-wide express.json()', () => appWideJson],
  ] as const) {
    describe(name, () => {
      it('malformed JSON -> 422 json_invalid at the character position', async () => {
        const res = await send(running().base, 'POST', '/search', '{"q": "x" "top_k": 5}', JSON_HEADERS);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          detail: [{ type: 'json_invalid', loc: ['body', 10], msg: 'JSON decode error', input: {}, ctx: { error: "Expecting ',' delimiter" } }],
        });
      });

      it('valid JSON that is not an object -> model_attributes_type; null -> missing', async () => {
        expect((await send(running().base, 'POST', '/search', '"abc"', JSON_HEADERS)).body).toEqual({
          detail: [
            {
              type: 'model_attributes_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary or object to extract fields from',
              input: 'abc',
            },
          ],
        });
        expect((await send(running().base, 'POST', '/search', 'null', JSON_HEADERS)).body).toEqual({
          detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
        });
      });

      it('a valid body passes', async () => {
        const res = await send(running().base, 'POST', '/search', '{"q": "x", "top_k": "3"}', JSON_HEADERS);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ q: 'x', top_k: 3 });
      });
    });
  }

  it('a body without Content-Type is not read as JSON (a cross-site no-CORS post sends one): 422 as for any non-JSON type', async () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }] as Record<string, string>[]) {
      const res = await send(plain.base, 'POST', '/search', '{"q": "x"}', headers);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: '{"q": "x"}' }],
      });
    }
  });

  it('a body over the limit is a 413', async () => {
    const res = await send(plain.base, 'POST', '/search', JSON.stringify({ q: 'x'.repeat(5000) }), JSON_HEADERS);
    expect(res.status).toBe(413);
    expect(typeof res.body.detail).toBe('string');
  });
});

describe('unexpected errors', () => {
  it('answer a bare 500 and log the path without the query string (it can hold an identity provider\'s code and state)', async () => {
    const logged: string[] = [];
    const app = express();
    app.get('/auth/github/callback', () => {
      throw new Error('boom');
    });
    app.use(errorHandler({ error: (message) => logged.push(message) }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'GET', '/auth/github/callback?code=SECRET-CODE&state=SECRET-STATE');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ detail: 'Internal Server Error' });
      expect(logged).toEqual(['Unhandled error on GET /auth/github/callback']);
    } finally {
      server.close();
      await once(server, 'close');
    }
  });
});

describe('pythonJsonError mirrors CPython json messages and positions', () => {
  it.each([
    ['', 'Expecting value', 0],
    ['   ', 'Expecting value', 3],
    ['{', 'Expecting property name enclosed in double quotes', 1],
    ["{'q': 1}", 'Expecting property name enclosed in double quotes', 1],
    ['{"q" 1}', "Expecting ':' delimiter", 5],
    ['{"a": 1 "b": 2}', "Expecting ',' delimiter", 8],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes', 8],
    ['[1,]', 'Expecting value', 3],
    ['[1 2]', "Expecting ',' delimiter", 3],
    ['{"a": tru}', 'Expecting value', 6],
    ['[1] x', 'Extra data', 4],
    ['01', 'Extra data', 1],
    ['"abc', 'Unterminated string starting at', 0],
    ['{"a": "b\nc"}', 'Invalid control character at', 8],
    ['"a\\qb"', 'Invalid \\escape', 2],
    ['"\\u12"', 'Invalid \\uXXXX escape', 2],
    ['{"\u{1F600}": x}', 'Expecting value', 6], // positions count code points, as Python does
  ])('%j', (text, msg, pos) => {
    expect(pythonJsonError(text)).toEqual({ msg, pos });
  });

  it('accepts what Python accepts', () => {
    for (const text of ['{}', '[]', ' {"a": [1, 2.5e3, -0, true, false, null, "\\u00e9\\n"]} ', '"x"', 'NaN', '[-Infinity]']) {
      expect(pythonJsonError(text)).toBeNull();
    }
  });
});

describe('locateIssues', () => {
  it('prefixes the loc and nulls the input of a missing query parameter', () => {
    expect(locateIssues([{ type: 'missing', loc: ['source_id'], msg: 'Field required', input: {} }], 'query')).toEqual([
      { type: 'missing', loc: ['query', 'source_id'], msg: 'Field required', input: null },
    ]);
    expect(locateIssues([{ type: 'missing', loc: ['q'], msg: 'Field required', input: {} }], 'body')).toEqual([
      { type: 'missing', loc: ['body', 'q'], msg: 'Field required', input: {} },
    ]);
  });
});
