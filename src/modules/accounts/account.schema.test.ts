/** The e-mail rule shared by registration, dev-login and team invites: a plain addr-spec only. */
import { ValidationError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { emailField, registerBodySchema } from './account.schema.js';

const valid = (value: string) => emailField.safeParse(value).success;

describe('emailField', () => {
  it('accepts plain addresses, with tags, dots, hyphens and international letters', () => {
    for (const address of ['a@b.example', 'Ann.Smith@Example.org', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie", 'jörg@müller.example', 'x_y-z@a-b.example']) {
      expect([address, valid(address)]).toEqual([address, true]);
    }
  });

  it('refuses display names, angle brackets, spaces, control characters, lists and quoted local parts', () => {
    const refused = [
      '<a@b.example>',
      'Boss <boss@example.org>',
      'a b@example.org',
      ' a@example.org',
      'a@example.org\r\nBcc: x@example.org',
      'a@exa\tmple.org',
      'a@example.org,b@example.org',
      'a@example.org;b@example.org',
      '"a"@example.org',
      '(comment)a@example.org',
      'a@[127.0.0.1]',
      '.a@example.org',
      'a.@example.org',
      'a..b@example.org',
      'a@example..org',
      'a@-example.org',
      'a@example.org.',
      'a@example',
      'not-an-address',
      'a@@example.org',
    ];
    for (const address of refused) expect([address, valid(address)]).toEqual([address, false]);
  });

  it('refuses a NUL character with the service-wide NUL message (src/validation.ts), not a second one', () => {
    let error: unknown;
    try {
      parseInput(registerBodySchema, { email: 'a@example.org\u0000', password: 'a sturdy passphrase 42' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([expect.objectContaining({ loc: ['email'], msg: expect.stringMatching(/NUL character/) })]);
  });

  it('is the rule registration uses', () => {
    const body = { email: '<a@b.example>', password: 'a sturdy passphrase 42' };
    expect(registerBodySchema.safeParse(body).success).toBe(false);
    expect(registerBodySchema.safeParse({ ...body, email: 'a@b.example' }).success).toBe(true);
  });
});
