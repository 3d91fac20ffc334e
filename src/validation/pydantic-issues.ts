/** zod issues -> pydantic v2 error dicts (`type`, `loc`, `msg`, `input`, `ctx`). */
import { z } from 'zod';
import type { ValidationIssue } from '../errors.js';
import { BOOL_TYPE, DATE_TYPE, FINITE_NUMBER, FLOAT_TYPE, INT_FROM_FLOAT, INT_TYPE, PYDANTIC, type PydanticErrorSpec } from './pydantic-errors.js';
import { coerceDate } from './speedate.js';

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

export type Path = (string | number)[];
type ZodIssue = z.core.$ZodIssue;

export function lookup(root: unknown, path: Path): { present: boolean; value: unknown } {
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
    case 'too_small':
      return [make(boundError('min', issue.origin, issue.minimum, Boolean(issue.inclusive), at.value))];
    case 'too_big':
      return [make(boundError('max', issue.origin, issue.maximum, Boolean(issue.inclusive), at.value))];
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

/** pydantic's error for a value past a bound: string length, list length, or the number itself. */
function boundError(side: 'min' | 'max', origin: string, bound: number | bigint, inclusive: boolean, value: unknown): PydanticErrorSpec {
  const [atLeast, lengthKey] = side === 'min' ? ['at least', 'min_length'] : ['at most', 'max_length'];
  if (origin === 'string') {
    return { type: side === 'min' ? 'string_too_short' : 'string_too_long', msg: `String should have ${atLeast} ${plural(bound, 'character')}`, ctx: { [lengthKey]: bound } };
  }
  if (origin === 'array' || origin === 'set') {
    const actual = Array.isArray(value) ? value.length : 0;
    return {
      type: side === 'min' ? 'too_short' : 'too_long',
      msg: `List should have ${atLeast} ${plural(bound, 'item')} after validation, not ${actual}`,
      ctx: { field_type: 'List', [lengthKey]: bound, actual_length: actual },
    };
  }
  const [word, key] = side === 'min' ? ['greater', inclusive ? 'ge' : 'gt'] : ['less', inclusive ? 'le' : 'lt'];
  return {
    type: `${word}_than${inclusive ? '_equal' : ''}`,
    msg: `Input should be ${word} than ${inclusive ? 'or equal to ' : ''}${bound}`,
    ctx: { [key]: bound },
  };
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

export function valueError(message: string): PydanticErrorSpec {
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
