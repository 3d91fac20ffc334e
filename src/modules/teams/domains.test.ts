/** Allowed-domain names: normalising one, and a PUT body's list with its 422 issues. */
import { domainOf, normaliseDomain, normaliseDomainList } from './domains.js';

describe('allowed-domain names', () => {
  it('keeps the ASCII, lower-cased form and refuses what is not a domain or is a public mail domain', () => {
    expect(normaliseDomain(' Firm.Example. ')).toEqual({ domain: 'firm.example' });
    expect(normaliseDomain('bücher.example')).toEqual({ domain: 'xn--bcher-kva.example' });
    expect(normaliseDomain('localhost')).toEqual({ error: 'not a valid domain name' });
    expect(normaliseDomain('10.0.0.1')).toEqual({ error: 'not a valid domain name' });
    expect(normaliseDomain('-bad.example')).toEqual({ error: 'not a valid domain name' });
    expect(normaliseDomain('Gmail.com')).toEqual({ error: 'a public mail domain cannot be an allowed domain' });
  });

  it("takes an address's domain in the stored form", () => {
    expect(domainOf('Ann@Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(domainOf('no-at-sign')).toBeNull();
  });

  it('normalises a list without repeats, in the order given', () => {
    expect(normaliseDomainList(['B.example', 'a.example', 'b.example.'])).toEqual({ domains: ['b.example', 'a.example'] });
    expect(normaliseDomainList([])).toEqual({ domains: [] });
  });

  it('reports every bad entry at its index, as a 422 value_error', () => {
    expect(normaliseDomainList(['ok.example', 'gmail.com', 'x'])).toEqual({
      issues: [
        { type: 'value_error', loc: ['domains', 1], msg: 'Value error, a public mail domain cannot be an allowed domain', input: 'gmail.com', ctx: { error: 'a public mail domain cannot be an allowed domain' } },
        { type: 'value_error', loc: ['domains', 2], msg: 'Value error, not a valid domain name', input: 'x', ctx: { error: 'not a valid domain name' } },
      ],
    });
  });
});
