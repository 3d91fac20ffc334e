import { z } from 'zod';
import { portableJsonSchema } from './portable-schemas.js';

describe('portableJsonSchema: tool schemas in the spelling every MCP client reads', () => {
  it('splits type arrays into anyOf branches, at any depth, keeping the other keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        url: { type: ['string', 'null'], maxLength: 20, description: 'nullable' },
        nested: { type: 'array', items: { type: 'object', properties: { score: { type: ['number', 'null'] } } } },
      },
      definitions: { Hit: { type: 'object', properties: { id: { type: ['string', 'null'] } } } },
    };
    expect(portableJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        url: { anyOf: [{ type: 'string' }, { type: 'null' }], maxLength: 20, description: 'nullable' },
        nested: { type: 'array', items: { type: 'object', properties: { score: { anyOf: [{ type: 'number' }, { type: 'null' }] } } } },
      },
      definitions: { Hit: { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'null' }] } } } },
    });
    // the input is left as it was
    expect(schema.properties.url.type).toEqual(['string', 'null']);
  });

  it('writes a free-form value as true, and keeps an existing anyOf beside the new one', () => {
    expect(portableJsonSchema({ type: 'object', additionalProperties: {} })).toEqual({ type: 'object', additionalProperties: true });
    expect(portableJsonSchema({ type: ['string', 'null'], anyOf: [{ minLength: 1 }, { const: null }] })).toEqual({
      anyOf: [{ minLength: 1 }, { const: null }],
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }],
    });
  });

  it('leaves no type array in what zod writes for the tools\' nullable and free-form fields', () => {
    const written = z.toJSONSchema(z.object({ a: z.string().nullable(), b: z.record(z.string(), z.unknown()), c: z.array(z.number().nullable()) }), { target: 'draft-7' });
    const text = JSON.stringify(written);
    expect(text).toMatch(/"type":\["string","null"\]/); // what zod writes (the reason for this module)
    const portable = JSON.stringify(portableJsonSchema(written));
    expect(portable).not.toMatch(/"type":\[/);
    expect(portable).not.toMatch(/:\{\}/);
  });
});
