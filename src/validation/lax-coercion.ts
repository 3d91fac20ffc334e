/**
 * pydantic's lax mode on zod schemas: `"5"` is 5 for an int, `"0.5"` or `true` a float, `"yes"`
 * a bool. The `lax*` helpers wrap a zod schema in a preprocess step that performs exactly those
 * coercions and reports pydantic's own parsing errors (int_parsing, int_from_float,
 * float_parsing, bool_parsing, date_from_datetime_parsing...); the wrapped schema still checks
 * the bounds and is what z.toJSONSchema describes. (`z.coerce.*` is NOT a substitute: it turns
 * "" and null into 0 and "abc" into NaN.)
 *
 * Give a lax field its default with `.prefault(x)`, not `.default(x)`: z.toJSONSchema with
 * `io: 'input'` drops the `default` of any schema containing a transform, but prints a prefault.
 */
import { z } from 'zod';
import {
  BOOL_PARSING,
  BOOL_TYPE,
  type Coerced,
  fail,
  FINITE_NUMBER,
  FLOAT_PARSING,
  FLOAT_TYPE,
  INT_FROM_FLOAT,
  INT_PARSING,
  INT_TYPE,
  ok,
  PYDANTIC,
} from './pydantic-errors.js';
import { coerceDate } from './speedate.js';


/**
 * An int field in pydantic's lax mode: accepts integers, floats without a fractional part,
 * booleans and numeric strings ("5", " 5 ", "5.0", "1_000"). `inner` carries the bounds,
 * e.g. `laxInt(z.number().int().min(1).max(100)).prefault(10)`. Absent values pass through
 * untouched so `.prefault()`/`.optional()` and the "missing" error keep working.
 */
export function laxInt<S extends z.ZodType<number, number>>(inner: S) {
  return laxPreprocess(coerceInt, inner);
}

/** A float field in pydantic's lax mode: numbers, booleans and numeric strings ("0.5", "1e-3"). */
export function laxFloat<S extends z.ZodType<number, number>>(inner: S) {
  return laxPreprocess(coerceFloat, inner);
}

/**
 * A bool field in pydantic's lax mode: booleans, 0/1 and the strings 0/1, true/false, t/f,
 * yes/no, y/n, on/off (any case); anything else is `bool_parsing`. This is also what FastAPI
 * does with `?include_empty=...` query parameters.
 */
export function laxBool<S extends z.ZodType<boolean, boolean> = z.ZodBoolean>(inner?: S) {
  return laxPreprocess(coerceBool, (inner ?? z.boolean()) as S);
}

/**
 * A `datetime.date` field in pydantic's lax mode: `YYYY-MM-DD`, a datetime at exactly midnight
 * (`2020-01-01T00:00:00`) or a unix timestamp at midnight UTC; the output is always `YYYY-MM-DD`.
 * Errors are pydantic's (`date_from_datetime_parsing` with speedate's explanation, e.g.
 * "Input should be a valid date or datetime, month value is outside expected range of 1-12").
 */
export function laxDate() {
  return laxPreprocess(coerceDate, z.iso.date());
}

function laxPreprocess<T, S extends z.ZodType>(coerce: (value: unknown) => Coerced<T>, inner: S) {
  // The preprocess input type is declared as the inner schema's input type, so
  // z.input<typeof schema> stays what it would be without the lax layer.
  return z.preprocess<unknown, S, z.input<S>>((value, ctx) => {
    if (value === undefined) return value; // absent: let the inner schema (or .default) decide
    const result = coerce(value);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.error.msg, input: value, params: { [PYDANTIC]: result.error } });
    return value;
  }, inner);
}

// ---------------------------------------------------------------------------------------------
// pydantic-core's lax conversions
// ---------------------------------------------------------------------------------------------

/** Python allows single underscores between digits ("1_000"). */
function stripUnderscores(s: string): string | null {
  if (!s.includes('_') || s.startsWith('_') || s.endsWith('_') || s.includes('__')) return null;
  return s.replaceAll('_', '');
}

const INT_RE = /^[+-]?\d+$/;

export function coerceInt(value: unknown): Coerced<number> {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(FINITE_NUMBER);
    return Number.isInteger(value) ? ok(value) : fail(INT_FROM_FLOAT);
  }
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value === 'bigint') return ok(Number(value));
  if (typeof value !== 'string') return fail(INT_TYPE);
  const s = value.trim();
  if (s.length > 4300) {
    return fail({ type: 'int_parsing_size', msg: 'Unable to parse input string as an integer, exceeded maximum size' });
  }
  if (INT_RE.test(s)) return ok(Number(s));
  const decimal = /^([+-]?\d+)\.0*$/.exec(s); // "5.0" and "5." are integers to pydantic
  if (decimal) return ok(Number(decimal[1]));
  const stripped = stripUnderscores(s);
  if (stripped !== null && INT_RE.test(stripped)) return ok(Number(stripped));
  return fail(INT_PARSING);
}

/** Rust's f64 grammar (what pydantic-core parses strings with), minus inf/nan. */
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INF_NAN_RE = /^[+-]?(inf|infinity|nan)$/i;

export function coerceFloat(value: unknown): Coerced<number> {
  if (typeof value === 'number') return Number.isFinite(value) ? ok(value) : fail(FINITE_NUMBER);
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value !== 'string') return fail(FLOAT_TYPE);
  const s = value.trim();
  if (FLOAT_RE.test(s)) return ok(Number(s));
  const stripped = stripUnderscores(s);
  if (stripped !== null && FLOAT_RE.test(stripped)) return ok(Number(stripped));
  // pydantic would accept "inf"/"nan" and then compare them with the bounds; a search
  // parameter has no use for them, so they are refused as non-finite.
  if (INF_NAN_RE.test(s)) return fail(FINITE_NUMBER);
  return fail(FLOAT_PARSING);
}

const TRUE_STRINGS = new Set(['1', 't', 'y', 'on', 'yes', 'true']);
const FALSE_STRINGS = new Set(['0', 'f', 'n', 'no', 'off', 'false']);

export function coerceBool(value: unknown): Coerced<boolean> {
  if (typeof value === 'boolean') return ok(value);
  if (typeof value === 'string') {
    const s = value.toLowerCase();
    if (TRUE_STRINGS.has(s)) return ok(true);
    if (FALSE_STRINGS.has(s)) return ok(false);
    return fail(BOOL_PARSING);
  }
  if (typeof value === 'number') {
    if (value === 0 || value === 1) return ok(value === 1);
    return fail(Number.isInteger(value) ? BOOL_PARSING : BOOL_TYPE);
  }
  return fail(BOOL_TYPE);
}
