/**
 * The REST door's single error mapper: domain errors, body-parsing errors and unknown routes
 * become the status codes and `{"detail": ...}` bodies a FastAPI service would send.
 *
 * Where did an invalid value come from? Services validate their own input and throw
 * ValidationError with locs RELATIVE to what they were given (`["top_k"]`). A route says where
 * that input came from by running the call inside `withLoc('body' | 'query' | 'path', fn)`
 * (or a per-parameter map such as `{ code: 'path', include_empty: 'query' }`); the wrapper
 * rethrows a RequestValidationError whose locs are absolute (`["body", "top_k"]`). A
 * ValidationError that reaches the mapper without that wrapper is treated as coming from the body.
 */
import { STATUS_CODES } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { asDomainError, DomainError, HTTP_STATUS_BY_CODE, ValidationError, type ValidationIssue } from '../errors.js';
import type { Logger } from '../logger.js';

export type InputLocation = 'body' | 'query' | 'path' | 'header' | 'cookie';

/** Where each parameter name came from; `'*'` covers names not listed (default `'body'`). */
export type InputLocations = InputLocation | Partial<Record<string, InputLocation>>;

/** A ValidationError whose locs already start with the input location (`["query", "namespace"]`). */
export class RequestValidationError extends ValidationError {
  constructor(issues: ValidationIssue[]) {
    super(issues);
    this.name = 'RequestValidationError';
  }
}

/** Prefixes relative locs with their input location, FastAPI-style. */
export function locateIssues(issues: ValidationIssue[], where: InputLocations): ValidationIssue[] {
  return issues.map((issue) => {
    const location =
      typeof where === 'string' ? where : (where[String(issue.loc[0])] ?? where['*'] ?? 'body');
    const located: ValidationIssue = { ...issue, loc: [location, ...issue.loc] };
    // FastAPI validates query/path/header parameters one by one: a missing one reports
    // `input: null`, not the whole parameter set.
    if (location !== 'body' && issue.type === 'missing' && issue.loc.length === 1) located.input = null;
    return located;
  });
}

/**
 * Runs `work` (typically one service call) and gives any ValidationError it throws absolute locs.
 *
 *   res.json(await withLoc('body', () => api.search(ctx, req.body)));
 */
export async function withLoc<T>(where: InputLocations, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError && !(error instanceof RequestValidationError)) {
      throw new RequestValidationError(locateIssues(error.issues, where));
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/** A request body that is not valid JSON; `position` counts characters, as Python's json module does. */
export class JsonInvalidError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`JSON decode error: ${reason} at position ${position}`);
    this.name = 'JsonInvalidError';
  }
}

function isJsonContentType(header: string | undefined): boolean {
  // Unlike FastAPI, a body without Content-Type is not JSON: a page of another site can send
  // one without a CORS preflight (a no-CORS fetch of an untyped Blob), so reading it as JSON
  // would let that page call the JSON API. It gets what any non-JSON media type gets.
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType);
}

/**
 * Body parser with FastAPI's semantics: no body -> `undefined` (reported as a missing body),
 * a JSON Content-Type -> any JSON value, parse failures -> JsonInvalidError (422
 * `json_invalid`), any other or no Content-Type -> the raw text (so validation reports it as
 * not an object: 422 `model_attributes_type`, what FastAPI answers for a non-JSON media type). Mount it on the routes that take a body, instead of an app-wide `express.json()`
 * (whose default `strict: true` rejects valid JSON such as `"abc"` before validation sees it).
 */
export function jsonBody(options: { limit?: string | number } = {}): RequestHandler {
  const readText = express.text({ type: () => true, limit: options.limit ?? '1mb' });
  return (req, res, next) => {
    readText(req, res, (error?: unknown) => {
      if (error) return next(error);
      const raw: unknown = req.body;
      if (typeof raw !== 'string') return next(); // no body, or parsed earlier by another parser
      if (raw === '') {
        req.body = undefined;
        return next();
      }
      if (!isJsonContentType(req.headers['content-type'])) return next();
      try {
        req.body = JSON.parse(raw);
        next();
      } catch (parseError) {
        next(jsonInvalid(raw, parseError));
      }
    });
  };
}

function jsonInvalid(text: string, parseError: unknown): JsonInvalidError {
  const located = pythonJsonError(text);
  return located
    ? new JsonInvalidError(located.pos, located.msg)
    : new JsonInvalidError(0, parseError instanceof Error ? parseError.message : 'Expecting value');
}

class JsonFailure {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

const JSON_WS = new Set([' ', '\t', '\n', '\r']);
const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Finds the first error in `text` the way CPython's json module (3.12) reports it, e.g.
 * `{ msg: "Expecting ',' delimiter", pos: 12 }`, so that `json_invalid` errors carry the same
 * position and message as FastAPI's. Returns null when Python would accept the text.
 */
export function pythonJsonError(text: string): { msg: string; pos: number } | null {
  try {
    new PythonJsonScanner(text).scanDocument();
    return null;
  } catch (error) {
    if (error instanceof JsonFailure) {
      // Python counts code points, JavaScript UTF-16 units
      return { msg: error.msg, pos: [...text.slice(0, error.pos)].length };
    }
    return null; // e.g. nesting too deep for the stack
  }
}

/**
 * A recursive-descent scanner that accepts what CPython's json module accepts (NaN and
 * Infinity included) and throws a JsonFailure with Python's message at the first error.
 * Each method takes the index to start at and returns the index after what it read.
 */
class PythonJsonScanner {
  constructor(private readonly s: string) {}

  scanDocument(): void {
    const end = this.skip(this.scanValue(this.skip(0)));
    if (end !== this.s.length) throw new JsonFailure('Extra data', end);
  }

  private skip(i: number): number {
    while (i < this.s.length && JSON_WS.has(this.s[i]!)) i++;
    return i;
  }

  private scanString(start: number): number {
    const s = this.s;
    const begin = start - 1;
    let i = start;
    for (;;) {
      while (i < s.length && s[i] !== '"' && s[i] !== '\\') {
        if (s.charCodeAt(i) <= 0x1f) throw new JsonFailure('Invalid control character at', i);
        i++;
      }
      if (i >= s.length) throw new JsonFailure('Unterminated string starting at', begin);
      if (s[i] === '"') return i + 1;
      i++; // the backslash
      if (i >= s.length) throw new JsonFailure('Unterminated string starting at', begin);
      if (s[i] !== 'u') {
        if (!'"\\/bfnrt'.includes(s[i]!)) throw new JsonFailure('Invalid \\escape', i - 1);
        i++;
        continue;
      }
      i++;
      if (i + 4 >= s.length) throw new JsonFailure('Invalid \\uXXXX escape', i - 1);
      if (!HEX4.test(s.slice(i, i + 4))) throw new JsonFailure('Invalid \\uXXXX escape', i - 1);
      i += 4;
    }
  }

  private scanValue(i: number): number {
    const s = this.s;
    const c = s[i];
    if (c === undefined) throw new JsonFailure('Expecting value', i);
    if (c === '"') return this.scanString(i + 1);
    if (c === '{') return this.scanObject(i + 1);
    if (c === '[') return this.scanArray(i + 1);
    for (const literal of ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity']) {
      if (s.startsWith(literal, i)) return i + literal.length;
    }
    JSON_NUMBER.lastIndex = i;
    const number = JSON_NUMBER.exec(s);
    if (number) return i + number[0].length;
    throw new JsonFailure('Expecting value', i);
  }

  private scanObject(start: number): number {
    const s = this.s;
    let i = this.skip(start);
    if (s[i] === '}') return i + 1;
    for (;;) {
      if (s[i] !== '"') throw new JsonFailure('Expecting property name enclosed in double quotes', i);
      i = this.skip(this.scanString(i + 1));
      if (s[i] !== ':') throw new JsonFailure("Expecting ':' delimiter", i);
      i = this.skip(this.scanValue(this.skip(i + 1)));
      if (s[i] === '}') return i + 1;
      if (s[i] !== ',') throw new JsonFailure("Expecting ',' delimiter", i);
      i = this.skip(i + 1);
    }
  }

  private scanArray(start: number): number {
    const s = this.s;
    let i = this.skip(start);
    if (s[i] === ']') return i + 1;
    for (;;) {
      i = this.skip(this.scanValue(i));
      if (s[i] === ']') return i + 1;
      if (s[i] !== ',') throw new JsonFailure("Expecting ',' delimiter", i);
      i = this.skip(i + 1);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The mapper
// ---------------------------------------------------------------------------------------------


interface HttpErrorLike {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  body?: unknown;
  message?: string;
}

const consoleLogger: Pick<Logger, 'error'> = { error: (message, error) => console.error(message, error) };

/**
 * Express error middleware: mount it after every router. Unexpected errors are logged with
 * `logger.error` and answered with a bare 500, never a stack.
 */
export function errorHandler(logger: Pick<Logger, 'error'> = consoleLogger): ErrorRequestHandler {
  return (thrown: unknown, req, res, next) => {
    if (res.headersSent) return next(thrown);
    const error = asDomainError(thrown);

    if (error instanceof ValidationError) {
      const issues = error instanceof RequestValidationError ? error.issues : locateIssues(error.issues, 'body');
      res.status(422).json({ detail: issues });
      return;
    }
    if (error instanceof JsonInvalidError) {
      res.status(422).json({ detail: [jsonInvalidIssue(error)] });
      return;
    }
    if (error instanceof DomainError) {
      const status = HTTP_STATUS_BY_CODE[error.code] ?? 500;
      const retryAfter = error.details?.retryAfterSeconds;
      if (error.code === 'unauthorized') res.setHeader('WWW-Authenticate', 'Bearer');
      if (error.code === 'rate_limited' || (error.code === 'unavailable' && retryAfter !== undefined)) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfter ?? 1))));
      }
      res.status(status).json({ detail: error.message || STATUS_CODES[status] });
      return;
    }

    const httpError = (typeof error === 'object' && error !== null ? error : {}) as HttpErrorLike;
    // an app-wide express.json() that failed: same answer as our own parser
    if (httpError.type === 'entity.parse.failed' && typeof httpError.body === 'string') {
      res.status(422).json({ detail: [bodyParserIssue(httpError.body, error)] });
      return;
    }
    // client errors raised by express and body-parser (400 bad param encoding, 413 body too large...)
    const status = httpError.status ?? httpError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ detail: httpError.expose !== false && httpError.message ? httpError.message : STATUS_CODES[status] });
      return;
    }

    // The path only: a query string can carry secrets (an identity provider's `code` and `state`).
    logger.error(`Unhandled error on ${req.method} ${pathOnly(req.originalUrl)}`, error);
    res.status(500).json({ detail: 'Internal Server Error' });
  };
}

function pathOnly(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function jsonInvalidIssue(error: JsonInvalidError): ValidationIssue {
  return { type: 'json_invalid', loc: ['body', error.position], msg: 'JSON decode error', input: {}, ctx: { error: error.reason } };
}

/**
 * express.json() failed on `text`. Either it is not JSON (json_invalid, as FastAPI), or it is
 * valid JSON that express.json's default `strict` mode refuses because it is not an object or
 * array (`"abc"`, `5`, `null`): FastAPI would hand those to validation, and every JSON body of
 * this API is an object, so answer what validation would.
 */
function bodyParserIssue(text: string, error: unknown): ValidationIssue {
  if (pythonJsonError(text) === null) {
    try {
      const value: unknown = JSON.parse(text);
      if (value === null) return { type: 'missing', loc: ['body'], msg: 'Field required', input: null };
      return {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: value,
      };
    } catch {
      // not parseable by JavaScript after all (NaN, Infinity): report it as invalid JSON
    }
  }
  return jsonInvalidIssue(jsonInvalid(text, error));
}

/** FastAPI's answer for a known path called with another method. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (_req, res) => {
    res.setHeader('Allow', allowed.join(', '));
    res.status(405).json({ detail: 'Method Not Allowed' });
  };
}

/** The last middleware: FastAPI's answer for a path no route matches. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not Found' });
};
