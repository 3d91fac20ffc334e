/**
 * fast-check arbitraries for request fuzzing (test/request-fuzz.e2e.test.ts): values that follow
 * a JSON Schema of /openapi.json (the zod schemas the services validate with, as zod-to-openapi
 * wrote them), values near its edges, and any JSON at all (wrong types, huge and odd strings,
 * nulls, deep nesting). GraphQL argument types get the same three kinds of values.
 */
import fc from 'fast-check';

type JsonSchema = Record<string, any>;

/** Strings a validator should refuse or carry safely: empty, odd unicode, control characters, SQL and path tricks, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', '\uFEFF', '😀'.repeat(40), 'ẞ\u0301\u202E', "' or 1=1 --", '../../etc/passwd', '%00', '${x}', '<script>', 'null', 'NaN', '-1', '1e309'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(100_000, 300_000).map((n) => 'ä'.repeat(n)),
);

/** A number of every awkward kind JSON can carry. */
const nastyNumber = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 0.5, -0.0), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** Arrays and objects nested `depth` deep. */
const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: [deep(depth - 1)] });

/** Any JSON value: wrong types, nulls, deep nesting, huge strings. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, 0, [], {}, '') },
  { weight: 2, arbitrary: nastyString },
  { weight: 1, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom(64, 2_000).map(deep) },
);

/** Resolves `$ref: '#/components/schemas/X'` against the document. */
function resolve(schema: JsonSchema, document: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops++) current = document.components.schemas[String(current.$ref).split('/').pop()!];
  return current ?? {};
}

/**
 * Values of `schema`: mostly valid, sometimes at or past its bounds, sometimes any JSON. Objects
 * keep their required properties most of the time and drop or break one now and then.
 */
export function fromSchema(schema: JsonSchema, document: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, document);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v: JsonSchema) => fromSchema(v, document, depth + 1)));
  const valid = validFromSchema(s, document, depth);
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
}

function validFromSchema(s: JsonSchema, document: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(s.enum as unknown[])) }, { weight: 1, arbitrary: nastyString });
  if (s.const !== undefined) return fc.constant(s.const);
  const type = Array.isArray(s.type) ? s.type : [s.type];
  if (type.includes('null') && type.length > 1) {
    return fc.oneof(fc.constant(null), validFromSchema({ ...s, type: type.filter((t: string) => t !== 'null') }, document, depth));
  }
  switch (type[0]) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return integerOf(s);
    case 'number':
      return fc.oneof(fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true }), nastyNumber);
    case 'boolean':
      return fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('true', 'yes', 1, 0) });
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(fromSchema(s.items ?? {}, document, depth + 1), { minLength: Math.min(s.minItems ?? 0, 5), maxLength: Math.min((s.maxItems ?? 4) + 1, 60) });
    case 'object':
      return objectOf(s, document, depth);
    default:
      return anyJson;
  }
}

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 60;
  const formatted =
    s.format === 'email' ? fc.emailAddress() : s.format === 'uuid' ? fc.uuid() : s.format === 'date' ? fc.date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString().slice(0, 10)) : null;
  return fc.oneof(
    { weight: 4, arbitrary: formatted ?? fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 60) }) },
    // just past the bounds
    { weight: 1, arbitrary: fc.constant('x'.repeat(max + 1)) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.max(0, min - 1))) },
    { weight: 2, arbitrary: nastyString },
  );
}

function integerOf(s: JsonSchema): fc.Arbitrary<unknown> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1000);
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 1.5, '7', 2 ** 53) },
    { weight: 1, arbitrary: nastyNumber },
  );
}

function objectOf(s: JsonSchema, document: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set<string>(s.required ?? []);
  const names = Object.keys(properties);
  const record = fc.record(
    Object.fromEntries(names.map((name) => [name, fromSchema(properties[name]!, document, depth + 1)])),
    { requiredKeys: names.filter((n) => required.has(n)) },
  );
  // an unknown property now and then (allowed or refused, never a crash)
  return fc.tuple(record, fc.option(fc.tuple(nastyString.filter((k) => k.length < 50), anyJson), { freq: 8 })).map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
}

/** Query strings: each parameter from its schema, as text (`?a=1&b=x`), sometimes repeated or missing. */
export function queryString(parameters: JsonSchema[], document: JsonSchema): fc.Arbitrary<string> {
  const query = parameters.filter((p) => p.in === 'query');
  if (!query.length) return fc.constant('');
  const value = (p: JsonSchema) => fromSchema(p.schema ?? {}, document).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return fc
    .tuple(...query.map((p) => fc.option(fc.array(value(p), { minLength: 1, maxLength: 2 }), { freq: 4 }).map((values) => [p.name as string, values] as const)))
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [name, values] of pairs) for (const v of values ?? []) params.append(name, v);
      const text = params.toString();
      return text ? `?${text}` : '';
    });
}

/** A path parameter: a plausible id or anything a URL segment can carry. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(fc.uuid(), fc.constantFrom('DE', 'DE/BGH', 'bgb/823', '0', '-1', '%FF', '%2e%2e', 'a'.repeat(3000)), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent));
