import { z } from 'zod';
import { ValidationError, type ValidationIssue } from './errors.js';
import { searchRequestSchema } from './modules/legal-data/search.schema.js';
import { coerceBool, coerceDate, coerceFloat, coerceInt, laxBool, parseInput, pyRepr } from './validation.js';

function issuesOf(schema: z.ZodType, input: unknown): ValidationIssue[] {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

describe('parseInput with the SearchRequest schema', () => {
  it('returns the parsed request with defaults', () => {
    expect(parseInput(searchRequestSchema, { q: 'negligence' })).toEqual({
      q: 'negligence',
      top_k: 10,
      alpha: 0.7,
      explain: false,
      namespace: 'case_law',
      result_detail: 'snippet',
    });
  });

  it('coerces like pydantic lax mode', () => {
    const parsed = parseInput(searchRequestSchema, {
      q: 'x',
      top_k: '5',
      alpha: '0.25',
      court_tier: 2.0,
      date_start: '2020-01-01T00:00:00',
      date_end: '2021-12-31',
    });
    expect(parsed).toMatchObject({ top_k: 5, alpha: 0.25, court_tier: 2, date_start: '2020-01-01', date_end: '2021-12-31' });
    expect(parseInput(searchRequestSchema, { q: 'x', top_k: ' 7 ', alpha: 1 }).top_k).toBe(7);
    expect(parseInput(searchRequestSchema, { q: 'x', top_k: '8.0' }).top_k).toBe(8);
    expect(parseInput(searchRequestSchema, { q: 'x', country: null, court_tier: null }).country).toBeNull();
  });

  it('reports locs relative to the input and the missing field with the whole object', () => {
    expect(issuesOf(searchRequestSchema, { top_k: 3 })).toEqual([
      { type: 'missing', loc: ['q'], msg: 'Field required', input: { top_k: 3 } },
    ]);
  });

  it('reports every problem at once, one per field, in field order', () => {
    const issues = issuesOf(searchRequestSchema, { q: '', top_k: 0, alpha: 'x', namespace: 'x', country: ['DE', 7] });
    expect(issues.map((i) => [i.loc, i.type])).toEqual([
      [['q'], 'string_too_short'],
      [['top_k'], 'greater_than_equal'],
      [['alpha'], 'float_parsing'],
      [['country', 1], 'string_type'],
      [['namespace'], 'enum'],
    ]);
  });

  it('does not turn "" or null into numbers (unlike z.coerce)', () => {
    expect(issuesOf(searchRequestSchema, { q: 'x', top_k: '' })[0]).toMatchObject({ type: 'int_parsing', input: '' });
    expect(issuesOf(searchRequestSchema, { q: 'x', top_k: null })[0]).toMatchObject({
      type: 'int_type',
      msg: 'Input should be a valid integer',
      input: null,
    });
    expect(issuesOf(searchRequestSchema, { q: 'x', alpha: null })[0]).toMatchObject({ type: 'float_type', input: null });
  });

  it('reports the raw input, not the coerced one', () => {
    expect(issuesOf(searchRequestSchema, { q: 'x', top_k: '0' })).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['top_k'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
  });

  it('keeps one error per field even beyond the safe-integer range', () => {
    expect(issuesOf(searchRequestSchema, { q: 'x', top_k: 1e20 })).toEqual([
      expect.objectContaining({ type: 'less_than_equal', ctx: { le: 100 } }),
    ]);
  });

  it('prints the pattern of the source filter as pydantic does', () => {
    expect(issuesOf(searchRequestSchema, { q: 'x', source: ['DE'] })).toEqual([
      {
        type: 'string_pattern_mismatch',
        loc: ['source', 0],
        msg: "String should match pattern '^[^/]+/[^/]+$'",
        input: 'DE',
        ctx: { pattern: '^[^/]+/[^/]+$' },
      },
    ]);
  });

  it('answers a missing or non-object input at the top level', () => {
    expect(issuesOf(searchRequestSchema, undefined)).toEqual([{ type: 'missing', loc: [], msg: 'Field required', input: null }]);
    expect(issuesOf(searchRequestSchema, [1])).toEqual([
      {
        type: 'model_attributes_type',
        loc: [],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [1],
      },
    ]);
  });
});

describe('lax coercions', () => {
  it('int', () => {
    expect(coerceInt(true)).toEqual({ ok: true, value: 1 });
    expect(coerceInt('1_000')).toEqual({ ok: true, value: 1000 });
    expect(coerceInt('5.')).toEqual({ ok: true, value: 5 });
    expect(coerceInt('5.5')).toMatchObject({ ok: false, error: { type: 'int_parsing' } });
    expect(coerceInt('1e3')).toMatchObject({ ok: false, error: { type: 'int_parsing' } });
    expect(coerceInt([])).toMatchObject({ ok: false, error: { type: 'int_type' } });
  });

  it('float', () => {
    expect(coerceFloat('1e-3')).toEqual({ ok: true, value: 0.001 });
    expect(coerceFloat('.5')).toEqual({ ok: true, value: 0.5 });
    expect(coerceFloat(false)).toEqual({ ok: true, value: 0 });
    expect(coerceFloat('nan')).toMatchObject({ ok: false, error: { type: 'finite_number' } });
    expect(coerceFloat('0x10')).toMatchObject({ ok: false, error: { type: 'float_parsing' } });
    expect(coerceFloat({})).toMatchObject({ ok: false, error: { type: 'float_type' } });
  });

  it('bool', () => {
    for (const s of ['true', 'TRUE', '1', 'yes', 'on', 't', 'y']) expect(coerceBool(s)).toEqual({ ok: true, value: true });
    for (const s of ['false', 'False', '0', 'no', 'off', 'f', 'n']) expect(coerceBool(s)).toEqual({ ok: true, value: false });
    expect(coerceBool('maybe')).toEqual({
      ok: false,
      error: { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' },
    });
    expect(coerceBool(2)).toMatchObject({ ok: false, error: { type: 'bool_parsing' } });
    expect(coerceBool(null)).toMatchObject({ ok: false, error: { type: 'bool_type' } });
    expect(parseInput(z.object({ flag: laxBool().prefault(false) }), {})).toEqual({ flag: false });
  });

  it('date, with speedate explanations', () => {
    const error = (value: unknown) => {
      const result = coerceDate(value);
      return result.ok ? result.value : `${result.error.type}: ${result.error.msg}`;
    };
    expect(error('2024-02-29')).toBe('2024-02-29');
    expect(error('2020-13-01')).toBe(
      'date_from_datetime_parsing: Input should be a valid date or datetime, month value is outside expected range of 1-12',
    );
    expect(error('2023-02-29')).toBe('date_from_datetime_parsing: Input should be a valid date or datetime, day value is outside expected range');
    expect(error('yesterday')).toBe('date_from_datetime_parsing: Input should be a valid date or datetime, input is too short');
    expect(error('2020/01/01')).toBe(
      'date_from_datetime_parsing: Input should be a valid date or datetime, invalid date separator, expected `-`',
    );
    expect(error('2020-01-01x')).toBe(
      'date_from_datetime_parsing: Input should be a valid date or datetime, invalid datetime separator, expected `T`, `t`, `_` or space',
    );
    expect(error('2020-01-01T10:00:00')).toBe(
      'date_from_datetime_inexact: Datetimes provided to dates should have zero time - e.g. be exact dates',
    );
    expect(error('2020-01-01 00:00:00Z')).toBe('2020-01-01');
    expect(error(1577836800)).toBe('2020-01-01');
    expect(error(true)).toBe('date_type: Input should be a valid date');
  });

  it('prints expected values with Python repr', () => {
    expect(pyRepr('a')).toBe("'a'");
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr(null)).toBe('None');
    expect(pyRepr(true)).toBe('True');
  });
});

describe('the NUL rule (PostgreSQL cannot store \\u0000)', () => {
  const schema = z.object({ name: z.string().max(100).optional(), tags: z.array(z.string()).optional(), top_k: z.number().optional() });
  const nulIssue = (loc: (string | number)[], input: unknown) => ({
    type: 'value_error',
    loc,
    msg: 'Value error, String should not contain the NUL character (\\u0000)',
    input,
    ctx: { error: 'String should not contain the NUL character (\\u0000)' },
  });

  it('refuses a NUL in any accepted string, nested ones included, naming the field', () => {
    expect(issuesOf(schema, { name: 'a\u0000b' })).toEqual([nulIssue(['name'], 'a\u0000b')]);
    expect(issuesOf(schema, { tags: ['ok', '\u0000'] })).toEqual([nulIssue(['tags', 1], '\u0000')]);
    expect(issuesOf(searchRequestSchema, { q: 'x\u0000' })).toEqual([nulIssue(['q'], 'x\u0000')]);
  });

  it('reports it beside the schema\'s own problems, once per field', () => {
    expect(issuesOf(schema, { name: '\u0000', top_k: 'x' }).map((i) => [i.loc, i.type])).toEqual([
      [['top_k'], 'float_type'],
      [['name'], 'value_error'],
    ]);
    expect(issuesOf(schema, { name: `${'x'.repeat(100)}\u0000` }).map((i) => i.type)).toEqual(['string_too_long']);
  });

  it('ignores keys the schema drops and strings without NUL', () => {
    expect(parseInput(schema, { name: 'fine', unknown: '\u0000' })).toEqual({ name: 'fine' });
  });
});
