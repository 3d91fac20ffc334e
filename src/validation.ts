/**
 * Input validation with pydantic-v2 semantics on top of zod 4.
 *
 * Services call `parseInput(schema, input)`; on failure it throws a ValidationError whose issues
 * read exactly like pydantic's (`type`, `msg`, `input`, `ctx`), with `loc` RELATIVE to the
 * validated value (e.g. `["top_k"]`). Each door prefixes the loc with where the value came from
 * (REST: `"body"`, `"query"`, `"path"`).
 *
 * pydantic's lax mode coerces `"5"` to 5 for an int, `"0.5"` or `true` to a float and
 * `"yes"` to a bool; zod does not. The `lax*` helpers below wrap a zod schema in a preprocess
 * step that performs exactly those coercions and reports pydantic's own parsing errors
 * (int_parsing, int_from_float, float_parsing, bool_parsing, date_from_datetime_parsing...);
 * the wrapped schema still checks the bounds and is what z.toJSONSchema describes.
 * (`z.coerce.*` is NOT a substitute: it turns "" and null into 0 and "abc" into NaN.)
 *
 * Give a lax field its default with `.prefault(x)`, not `.default(x)`: z.toJSONSchema with
 * `io: 'input'` drops the `default` of any schema containing a transform, but prints a prefault.
 */
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from './errors.js';

/** A pydantic error in the making: type, message and context; loc and input are filled in later. */
export interface PydanticErrorSpec {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

type Coerced<T> = { ok: true; value: T } | { ok: false; error: PydanticErrorSpec };

const PYDANTIC = 'pydantic';

/**
 * Validates `input` against `schema` and returns the parsed value, or throws a ValidationError
 * listing every problem at once, pydantic-style, with locs relative to `input`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(toPydanticIssues(result.error, input));
}

/**
 * Turns zod issues into pydantic v2 error dicts. `input` is the value that was validated: each
 * issue's `input` is read from it at the issue's path (pydantic reports the raw, uncoerced value),
 * and a missing field reports its parent object, as pydantic does.
 */
export function toPydanticIssues(error: z.ZodError, input: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of error.issues) out.push(...convertIssue(issue, [], input));
  return onePerLocation(out);
}

// ---------------------------------------------------------------------------------------------
// Lax coercion helpers for schemas
// ---------------------------------------------------------------------------------------------

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

const INT_TYPE: PydanticErrorSpec = { type: 'int_type', msg: 'Input should be a valid integer' };
const INT_PARSING: PydanticErrorSpec = {
  type: 'int_parsing',
  msg: 'Input should be a valid integer, unable to parse string as an integer',
};
const INT_FROM_FLOAT: PydanticErrorSpec = {
  type: 'int_from_float',
  msg: 'Input should be a valid integer, got a number with a fractional part',
};
const FLOAT_TYPE: PydanticErrorSpec = { type: 'float_type', msg: 'Input should be a valid number' };
const FLOAT_PARSING: PydanticErrorSpec = {
  type: 'float_parsing',
  msg: 'Input should be a valid number, unable to parse string as a number',
};
const FINITE_NUMBER: PydanticErrorSpec = { type: 'finite_number', msg: 'Input should be a finite number' };
const BOOL_TYPE: PydanticErrorSpec = { type: 'bool_type', msg: 'Input should be a valid boolean' };
const BOOL_PARSING: PydanticErrorSpec = {
  type: 'bool_parsing',
  msg: 'Input should be a valid boolean, unable to interpret input',
};
const DATE_TYPE: PydanticErrorSpec = { type: 'date_type', msg: 'Input should be a valid date' };
const DATE_INEXACT: PydanticErrorSpec = {
  type: 'date_from_datetime_inexact',
  msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
};

const ok = <T>(value: T): Coerced<T> => ({ ok: true, value });
const fail = (error: PydanticErrorSpec): Coerced<never> => ({ ok: false, error });

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

// --- dates, after speedate (the parser pydantic-core uses) ------------------------------------

class SpeedateError extends Error {}

const SPEEDATE = {
  tooShort: 'input is too short',
  extra: 'unexpected extra characters at the end of the input',
  dateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  dateSep: 'invalid date separator, expected `-`',
  year: 'invalid character in year',
  month: 'invalid character in month',
  day: 'invalid character in day',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  timeSep: 'invalid time separator, expected `:`',
  hour: 'invalid character in hour',
  minute: 'invalid character in minute',
  second: 'invalid character in second',
  fraction: 'invalid character in second fraction',
  fractionMissing: 'second fraction digits missing after `.`',
  fractionTooLong: 'second fraction value is more than 6 digits long',
  tzSign: 'invalid timezone sign',
  tzHour: 'invalid timezone hour',
  tzMinute: 'invalid timezone minute',
  tzMinuteRange: 'timezone minute value is outside expected range of 0-59',
  tzRange: 'timezone offset must be less than 24 hours',
  hourRange: 'hour value is outside expected range of 0-23',
  minuteRange: 'minute value is outside expected range of 0-59',
  secondRange: 'second value is outside expected range of 0-59',
  dateTooSmall: 'dates before 1600 are not supported as unix timestamps',
  dateTooLarge: 'dates after 9999 are not supported as unix timestamps',
} as const;

interface SimpleDate {
  year: number;
  month: number;
  day: number;
}

function digitAt(s: string, i: number, message: string): number {
  const c = s.charCodeAt(i);
  if (!(c >= 48 && c <= 57)) throw new SpeedateError(message);
  return c - 48;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** speedate's Date::parse_bytes_partial: the first ten characters as YYYY-MM-DD. */
function parseDatePart(s: string): SimpleDate {
  if (s.length < 10) throw new SpeedateError(SPEEDATE.tooShort);
  let year = 0;
  for (let i = 0; i < 4; i++) year = year * 10 + digitAt(s, i, SPEEDATE.year);
  if (s[4] !== '-') throw new SpeedateError(SPEEDATE.dateSep);
  const month = digitAt(s, 5, SPEEDATE.month) * 10 + digitAt(s, 6, SPEEDATE.month);
  if (s[7] !== '-') throw new SpeedateError(SPEEDATE.dateSep);
  const day = digitAt(s, 8, SPEEDATE.day) * 10 + digitAt(s, 9, SPEEDATE.day);
  if (month < 1 || month > 12) throw new SpeedateError(SPEEDATE.monthRange);
  if (day < 1 || day > daysInMonth(year, month)) throw new SpeedateError(SPEEDATE.dayRange);
  return { year, month, day };
}

/** speedate's time parser from `start`: HH:MM[:SS[.ffffff]][Z|±HH[:]MM]. Returns whether it is midnight. */
function parseTimePart(s: string, start: number): boolean {
  if (s.length - start < 5) throw new SpeedateError(SPEEDATE.tooShort);
  const hour = digitAt(s, start, SPEEDATE.hour) * 10 + digitAt(s, start + 1, SPEEDATE.hour);
  if (s[start + 2] !== ':') throw new SpeedateError(SPEEDATE.timeSep);
  const minute = digitAt(s, start + 3, SPEEDATE.minute) * 10 + digitAt(s, start + 4, SPEEDATE.minute);
  let i = start + 5;
  let second = 0;
  let fraction = 0;
  if (s[i] === ':') {
    second = digitAt(s, i + 1, SPEEDATE.second) * 10 + digitAt(s, i + 2, SPEEDATE.second);
    i += 3;
    if (s[i] === '.' || s[i] === ',') {
      i += 1;
      const digits = /^\d*/.exec(s.slice(i))![0];
      if (digits.length === 0) throw new SpeedateError(SPEEDATE.fractionMissing);
      if (digits.length > 6) throw new SpeedateError(SPEEDATE.fractionTooLong);
      fraction = Number(digits);
      i += digits.length;
    }
  }
  if (hour > 23) throw new SpeedateError(SPEEDATE.hourRange);
  if (minute > 59) throw new SpeedateError(SPEEDATE.minuteRange);
  if (second > 59) throw new SpeedateError(SPEEDATE.secondRange);
  if (i < s.length) {
    const sign = s[i];
    if (sign === 'Z' || sign === 'z') {
      i += 1;
    } else if (sign === '+' || sign === '-' || sign === '\u2212') {
      const tzHour = digitAt(s, i + 1, SPEEDATE.tzHour) * 10 + digitAt(s, i + 2, SPEEDATE.tzHour);
      i += 3;
      if (s[i] === ':') i += 1;
      const tzMinute = digitAt(s, i, SPEEDATE.tzMinute) * 10 + digitAt(s, i + 1, SPEEDATE.tzMinute);
      i += 2;
      if (tzMinute > 59) throw new SpeedateError(SPEEDATE.tzMinuteRange);
      if (tzHour * 60 + tzMinute >= 24 * 60) throw new SpeedateError(SPEEDATE.tzRange);
    } else {
      throw new SpeedateError(SPEEDATE.tzSign);
    }
    if (i < s.length) throw new SpeedateError(SPEEDATE.extra);
  }
  return hour === 0 && minute === 0 && second === 0 && fraction === 0;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const formatDate = (d: SimpleDate) => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;

/** A unix timestamp (seconds, or milliseconds above 2e10, as speedate reads it) as a date at midnight UTC. */
function dateFromTimestamp(timestamp: number): Coerced<string> {
  const ms = Math.abs(timestamp) > 2e10 ? timestamp : timestamp * 1000;
  if (ms < Date.UTC(1600, 0, 1)) return fail(dateParsing(SPEEDATE.dateTooSmall));
  if (ms > Date.UTC(9999, 11, 31, 23, 59, 59, 999)) return fail(dateParsing(SPEEDATE.dateTooLarge));
  const at = new Date(ms);
  if (ms % 86_400_000 !== 0) return fail(DATE_INEXACT);
  return ok(formatDate({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() }));
}

function dateParsing(error: string): PydanticErrorSpec {
  return { type: 'date_from_datetime_parsing', msg: `Input should be a valid date or datetime, ${error}`, ctx: { error } };
}

export function coerceDate(value: unknown): Coerced<string> {
  if (typeof value === 'number') return Number.isFinite(value) ? dateFromTimestamp(value) : fail(DATE_TYPE);
  if (typeof value !== 'string') return fail(DATE_TYPE);
  // 1. a plain date
  try {
    const date = parseDatePart(value);
    if (value.length === 10) return ok(formatDate(date));
  } catch {
    // fall through to the datetime attempt, whose error is the one pydantic reports
  }
  // 2. a datetime at midnight, or a timestamp
  try {
    const date = parseDatePart(value);
    const sep = value[10];
    if (sep !== 'T' && sep !== 't' && sep !== ' ' && sep !== '_') throw new SpeedateError(SPEEDATE.dateTimeSep);
    return parseTimePart(value, 11) ? ok(formatDate(date)) : fail(DATE_INEXACT);
  } catch (error) {
    if (/^[+-]?\d+(\.\d+)?$/.test(value)) return dateFromTimestamp(Number(value));
    return fail(dateParsing((error as Error).message));
  }
}

// ---------------------------------------------------------------------------------------------
// zod issue -> pydantic error
// ---------------------------------------------------------------------------------------------

type Path = (string | number)[];
type ZodIssue = z.core.$ZodIssue;

function lookup(root: unknown, path: Path): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return { present: false, value: undefined };
    }
    current = (current as Record<string | number, unknown>)[key];
  }
  return { present: current !== undefined, value: current };
}

/** Python's repr() of a JSON-ish value, as pydantic prints expected values. */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') {
    return value.includes("'") && !value.includes('"')
      ? `"${value}"`
      : `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  }
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** pydantic's "'a', 'b' or 'c'". */
function orList(values: readonly unknown[]): string {
  const reprs = values.map(pyRepr);
  return reprs.length <= 1 ? (reprs[0] ?? '') : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;
}

const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;

function convertIssue(issue: ZodIssue, prefix: Path, root: unknown): ValidationIssue[] {
  const path: Path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  const at = lookup(root, path);
  const make = (spec: PydanticErrorSpec, input: unknown = at.value): ValidationIssue => ({
    type: spec.type,
    loc: path,
    msg: spec.msg,
    input: input === undefined ? null : input,
    ...(spec.ctx ? { ctx: spec.ctx } : {}),
  });

  switch (issue.code) {
    case 'invalid_type': {
      // absent key; at the top level also null (FastAPI: an empty or `null` body is "missing")
      const missing = path.length > 0 ? !at.present : root === undefined || root === null;
      if (missing) {
        // pydantic: a missing field reports the object it is missing from
        const parent = path.length > 0 ? lookup(root, path.slice(0, -1)).value : null;
        return [make({ type: 'missing', msg: 'Field required' }, parent)];
      }
      return [make(typeError(issue.expected, at.value))];
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string') {
        return [make({ type: 'string_too_short', msg: `String should have at least ${plural(min, 'character')}`, ctx: { min_length: min } })];
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        const actual = Array.isArray(at.value) ? at.value.length : 0;
        return [
          make({
            type: 'too_short',
            msg: `List should have at least ${plural(min, 'item')} after validation, not ${actual}`,
            ctx: { field_type: 'List', min_length: min, actual_length: actual },
          }),
        ];
      }
      return issue.inclusive
        ? [make({ type: 'greater_than_equal', msg: `Input should be greater than or equal to ${min}`, ctx: { ge: min } })]
        : [make({ type: 'greater_than', msg: `Input should be greater than ${min}`, ctx: { gt: min } })];
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string') {
        return [make({ type: 'string_too_long', msg: `String should have at most ${plural(max, 'character')}`, ctx: { max_length: max } })];
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        const actual = Array.isArray(at.value) ? at.value.length : 0;
        return [
          make({
            type: 'too_long',
            msg: `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
            ctx: { field_type: 'List', max_length: max, actual_length: actual },
          }),
        ];
      }
      return issue.inclusive
        ? [make({ type: 'less_than_equal', msg: `Input should be less than or equal to ${max}`, ctx: { le: max } })]
        : [make({ type: 'less_than', msg: `Input should be less than ${max}`, ctx: { lt: max } })];
    }
    case 'invalid_value': {
      const expected = orList(issue.values);
      return [make({ type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } })];
    }
    case 'invalid_format': {
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
        // zod gives the regex as `/source/flags`; pydantic prints the bare pattern
        const pattern = issue.pattern.replace(/^\/(.*)\/[a-z]*$/s, '$1').replaceAll('\\/', '/');
        return [make({ type: 'string_pattern_mismatch', msg: `String should match pattern '${pattern}'`, ctx: { pattern } })];
      }
      if (issue.format === 'date') {
        const coerced = coerceDate(at.value);
        return [make(coerced.ok ? DATE_TYPE : coerced.error)];
      }
      return [make(valueError(issue.message))];
    }
    case 'not_multiple_of':
      return [
        make({ type: 'multiple_of', msg: `Input should be a multiple of ${issue.divisor}`, ctx: { multiple_of: issue.divisor } }),
      ];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        type: 'extra_forbidden',
        loc: [...path, key],
        msg: 'Extra inputs are not permitted',
        input: lookup(root, [...path, key]).value ?? null,
      }));
    case 'invalid_union': {
      // pydantic lists every branch's errors; the first branch is the informative one here
      const branch = issue.errors[0];
      if (branch?.length) return branch.flatMap((sub) => convertIssue(sub, path, root));
      return [make(valueError(issue.message))];
    }
    case 'custom': {
      const spec = (issue.params as Record<string, unknown> | undefined)?.[PYDANTIC] as PydanticErrorSpec | undefined;
      return [make(spec ?? valueError(issue.message))];
    }
    default:
      return [make(valueError(issue.message))];
  }
}

function typeError(expected: string, value: unknown): PydanticErrorSpec {
  switch (expected) {
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string' };
    case 'number':
      return FLOAT_TYPE;
    case 'int':
      return typeof value === 'number' ? (Number.isFinite(value) ? INT_FROM_FLOAT : FINITE_NUMBER) : INT_TYPE;
    case 'boolean':
      return BOOL_TYPE;
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list' };
    case 'object':
      // FastAPI validates bodies with from_attributes, hence this type rather than model_type
      return { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' };
    case 'record':
    case 'map':
      return { type: 'dict_type', msg: 'Input should be a valid dictionary' };
    case 'date':
      return DATE_TYPE;
    case 'null':
      return { type: 'none_required', msg: 'Input should be None' };
    default:
      return { type: `${expected}_type`, msg: `Input should be a valid ${expected}` };
  }
}

function valueError(message: string): PydanticErrorSpec {
  return { type: 'value_error', msg: `Value error, ${message}`, ctx: { error: message } };
}

/**
 * pydantic reports one error per value (a field stops at its first failing constraint) while zod
 * runs every check: keep the first error per loc. zod's own safe-integer range note is dropped
 * when the field also broke its declared bound.
 */
function onePerLocation(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  const result: ValidationIssue[] = [];
  const safeLimit = (i: ValidationIssue) =>
    (i.ctx?.le === Number.MAX_SAFE_INTEGER || i.ctx?.ge === Number.MIN_SAFE_INTEGER) &&
    issues.some((o) => o !== i && JSON.stringify(o.loc) === JSON.stringify(i.loc));
  for (const issue of issues) {
    if (safeLimit(issue)) continue;
    const key = JSON.stringify(issue.loc);
    if (issue.type !== 'value_error' && seen.has(key)) continue;
    seen.add(key);
    result.push(issue);
  }
  return result;
}
