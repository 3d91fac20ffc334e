/**
 * Input validation with pydantic-v2 semantics on top of zod 4.
 *
 * Services call `parseInput(schema, input)`; on failure it throws a ValidationError whose issues
 * read exactly like pydantic's (`type`, `msg`, `input`, `ctx`), with `loc` RELATIVE to the
 * validated value (e.g. `["top_k"]`). Each door prefixes the loc with where the value came from
 * (REST: `"body"`, `"query"`, `"path"`).
 *
 * The parts: `validation/lax-coercion.ts` (pydantic's lax mode for schemas: `laxInt`,
 * `laxFloat`, `laxBool`, `laxDate`), `validation/speedate.ts` (its date parser),
 * `validation/pydantic-issues.ts` (zod issues -> pydantic error dicts) and
 * `validation/pydantic-errors.ts` (the error specs they share). This module is the entry point
 * and re-exports what the rest of the code uses.
 */
import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from './errors.js';
import { lookup, type Path, toPydanticIssues, valueError } from './validation/pydantic-issues.js';

export type { PydanticErrorSpec } from './validation/pydantic-errors.js';
export { coerceBool, coerceFloat, coerceInt, laxBool, laxDate, laxFloat, laxInt } from './validation/lax-coercion.js';
export { coerceDate } from './validation/speedate.js';
export { pyRepr, toPydanticIssues } from './validation/pydantic-issues.js';

/**
 * Validates `input` against `schema` and returns the parsed value, or throws a ValidationError
 * listing every problem at once, pydantic-style, with locs relative to `input`.
 *
 * One rule holds for every schema: no accepted string (nor object key) may contain the NUL
 * character. PostgreSQL cannot store it in text or jsonb, so it would otherwise surface as a
 * server error wherever the value reaches the database.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    // what the schema kept (unknown keys it strips never reach anything)
    const nul = nulIssues(result.data, input);
    if (nul.length > 0) throw new ValidationError(nul);
    return result.data;
  }
  const issues = toPydanticIssues(result.error, input);
  const reported = new Set(issues.map((issue) => JSON.stringify(issue.loc)));
  const nul = nulIssues(input, input).filter((issue) => !reported.has(JSON.stringify(issue.loc)));
  throw new ValidationError([...issues, ...nul]);
}

const NUL = '\u0000';

/**
 * The loc of the first string (or object key) of `value` that holds a NUL, or null: the same
 * rule for values that reach the database without a zod schema (oidc-provider's records).
 */
export function findNul(value: unknown): Path | null {
  return nulIssues(value, value)[0]?.loc ?? null;
}

const NUL_MESSAGE = 'String should not contain the NUL character (\\u0000)';

/**
 * One pydantic `value_error` per string of `value` that holds a NUL, at its loc; `input` is the
 * raw value at that loc in `root` (what pydantic reports), else the string itself. Iterative, so
 * a deeply nested body cannot overflow the stack.
 */
function nulIssues(value: unknown, root: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (loc: Path, found: string) => {
    const raw = lookup(root, loc);
    issues.push({ ...valueErrorIssue(loc), input: raw.present ? raw.value : found });
  };
  const stack: { value: unknown; loc: Path }[] = [{ value, loc: [] }];
  while (stack.length > 0) {
    const { value: current, loc } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) report(loc, current);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], loc: [...loc, i] });
    } else if (isPlainObject(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (key.includes(NUL)) report([...loc, key], key);
        else stack.push({ value: child, loc: [...loc, key] });
      }
    }
  }
  return issues;
}

function valueErrorIssue(loc: Path): Omit<ValidationIssue, 'input'> {
  const spec = valueError(NUL_MESSAGE);
  return { type: spec.type, loc, msg: spec.msg, ctx: spec.ctx };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A boolean field the spec gives `default false` that must nevertheless be true (assent flags:
 * `accept_terms`, `legal_accepted`). The rule sits on the object, as `.refine(...mustBeTrue(…))`,
 * so the field stays optional with its default in /openapi.json (a field-level refine would make
 * it required there); it runs even when another field failed, so every problem is reported at
 * once, and not when the field itself failed to parse.
 */
export function mustBeTrue<F extends string>(field: F, message: string): [(body: Record<F, boolean>) => boolean, z.core.$ZodCustomParams] {
  return [
    (body) => body[field],
    {
      path: [field],
      message,
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((issue) => !issue.path?.length || issue.path[0] === field),
    },
  ];
}
