/** Allowed-domain names: validation, IDN to ASCII, and the public mail providers nobody may claim. */
import { domainToASCII } from 'node:url';
import type { ValidationIssue } from '../../errors.js';

/** Free mail providers: an address there says nothing about the employer (kept short; extend as needed). */
export const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'live.com', 'msn.com',
  'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'ymail.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com',
  'proton.me', 'protonmail.com', 'pm.me', 'gmx.de', 'gmx.net', 'gmx.com', 'web.de', 't-online.de', 'mail.com',
  'mail.ru', 'yandex.ru', 'yandex.com', 'zoho.com', 'fastmail.com', 'tutanota.com', 'orange.fr', 'free.fr',
  'laposte.net', 'libero.it', 'qq.com', '163.com',
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain's ASCII form, lower-cased, or an error message. */
export function normaliseDomain(input: string): { domain: string } | { error: string } {
  const trimmed = input.trim().replace(/\.$/, '');
  const ascii = trimmed ? domainToASCII(trimmed.toLowerCase()) : '';
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!)) {
    return { error: 'not a valid domain name' };
  }
  if (PUBLIC_MAIL_DOMAINS.has(ascii)) return { error: 'a public mail domain cannot be an allowed domain' };
  return { domain: ascii };
}

/** The domain part of an e-mail address, in the form allowed domains are stored. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const ascii = domainToASCII(email.slice(at + 1).trim().toLowerCase());
  return ascii || null;
}

/**
 * The domains of a PUT /v1/team/domains body, normalised and without repeats (in the order
 * given), or the 422 issues of those that are not valid (`loc: ['domains', i]`).
 */
export function normaliseDomainList(raw: readonly string[]): { domains: string[] } | { issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const domains: string[] = [];
  raw.forEach((input, i) => {
    const result = normaliseDomain(input);
    if ('error' in result) issues.push({ type: 'value_error', loc: ['domains', i], msg: `Value error, ${result.error}`, input, ctx: { error: result.error } });
    else if (!domains.includes(result.domain)) domains.push(result.domain);
  });
  return issues.length ? { issues } : { domains };
}
