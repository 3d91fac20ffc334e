/**
 * Parsers of machine-readable identifiers (the fast path): ECLI, CELEX, ELI URIs, French
 * Legifrance ids and NOR, ECtHR application numbers, CJEU case numbers, and bare court file
 * numbers (German Aktenzeichen, French pourvoi numbers). Pure functions over a cleaned reference.
 */
import { codeKey } from './normalise.js';

export type IdentifierKind =
  | 'ecli'
  | 'celex'
  | 'eli'
  | 'legifrance'
  | 'nor'
  | 'echr_application'
  | 'cjeu_case'
  | 'case_number'
  | 'sr';

export interface ParsedIdentifier {
  kind: IdentifierKind;
  /** The normalised value looked up in the index. */
  value: string;
  /** For ELI URIs naming an article: its number. */
  unit?: string;
}

const ECLI = /\bECLI\s*[:.]?\s*([A-Z]{2})\s*:\s*([A-Z0-9.]{1,12})\s*:\s*(\d{4})\s*:\s*([A-Z0-9.]{1,30})/i;
const ECLI_LOOSE = /^ECLI\s*[:.\s]\s*([A-Z]{2})\s*[:\s]\s*([A-Z0-9.]{1,12})\s*[:\s]\s*(\d{4})\s*[:\s]\s*([A-Z0-9.]{1,30})$/i;
const CELEX = /^(?:(?:CELEX|EUR-Lex)(?:\s*-?\s*(?:number|nummer|no\.?|nr\.?|num[ée]ro|n°))?\s*[:.]?\s*)?([1-9CE])\s*(\d{4})\s*([A-Z]{1,2})\s*(\d{1,5})([A-Z]?(?:\(\d+\))?)$/i;
const LEGIFRANCE = /\b((?:LEGI|JORF|JURI|CETA|KALI|CNIL)(?:ARTI|TEXT|SCTA))\s*(\d{12})\b/i;
const NOR = /^(?:NOR\s*[:.]?\s*)?([A-Z]{4}\d{7}[A-Z])$/i;
const ECHR = /(?:\b(?:no|nos|n°|nº|app(?:lication)?\.?\s*no|requête\s*n°|Beschwerde-?Nr)\.?\s*)(\d{1,6})\s*\/\s*(\d{2})\b/i;
const CJEU = /^(?:(?:case|cases|affaire|aff\.|rs\.|rechtssache|causa)\s+)?([CTF])\s*-\s*(\d{1,4})\s*\/\s*(\d{2})(?:\s*(?:P|PPU|RENV|REV|DEP|OP|AJ|SA|R|INT))?$/i;
const ELI = /(?:https?:\/\/)?[^\s]*\/eli\/[^\s]+/i;
const ELI_ARTICLE = /(?:\/|#)(?:art(?:icle)?|section|sec|par)[_/-]?(\d+[a-z]?(?:[-_]\d+)*)\/?$/i;
const POURVOI = /^(?:(?:pourvoi\s+)?(?:n°|nº|no\.?|num[ée]ro)\s*)?(\d{2}\s*-\s*\d{2}\s*\.\s*\d{3})$/i;
/** German file numbers: `VI ZR 174/22`, `1 BvR 2103/16`, `B 2 U 3/24 B`, `IV R 17/23`, `5 AZR 118/23`. */
const AKTENZEICHEN = /^(?:Az\.?\s*:?\s*)?((?:[IVX]+[a-z]?|\d{1,2}|[A-Z])\s+(?:\d{1,2}\s+)?[A-Z][A-Za-z]{0,5}(?:\s+[A-Z]{1,3})?\s+\d{1,5}\s*\/\s*\d{2}(?:\s+[A-Z]{1,2})?)$/;

/** Swiss classified compilation numbers: `SR 235.1`, `SR-Nr. 822.11`, `RS 291`. */
const SR = /^(?:SR|RS|AS)(?:\s*-?\s*(?:Nr\.?|n°|no\.?))?\s*:?\s*(\d{1,3}(?:\.\d{1,3}){0,4})$/i;
/**
 * ELI URI tails that name a version or format, not another document
 * (`/enacted/en/html`, `/revised/en/pdf`, `/de`, `/fr/html`).
 */
const ELI_FORMAT = /(?:\/(?:enacted|revised|made|current|consolidated|oj|jo))?(?:\/(?:[a-z]{2}|ga|lb))?(?:\/(?:html|pdf|xml|print))?\/?$/i;
/** An Irish-style section inside an ELI path: `…/act/7/section/60/enacted/en/html`. */
const ELI_SECTION = /\/(?:section|sec|art|article|par)\/(\d+[a-z]?)(?=\/|$)/i;

/** The ELI without its version/format tail, and the unit it names. */
function parseEli(uri: string): ParsedIdentifier {
  let value = uri.replace(/[#?].*$/, (fragment) => (ELI_ARTICLE.test(fragment) ? fragment : ''));
  let unit: string | undefined;
  const hash = ELI_ARTICLE.exec(value);
  if (hash) {
    unit = hash[1].replace(/_/g, '-');
    value = value.replace(ELI_ARTICLE, '');
  }
  value = value.replace(ELI_FORMAT, '');
  const section = ELI_SECTION.exec(value);
  if (section) {
    unit ??= section[1];
    value = value.slice(0, section.index);
  }
  return { kind: 'eli', value, unit };
}

/** ECLI, CELEX and the other identifiers, or null when the reference is not one. */
export function parseIdentifier(raw: string): ParsedIdentifier | null {
  // A trailing full stop or brackets around an identifier are punctuation, not part of it.
  // By index: `/[.,;\s]+$/` retries every position of a long run that does not reach the end.
  let end = raw.length;
  while (end > 0 && '.,; \t\n'.includes(raw[end - 1])) end--;
  let reference = raw.slice(0, end);
  if (/^[([<].*[)\]>]$/.test(reference)) reference = reference.slice(1, -1).trim();
  const ecli = ECLI.exec(reference) ?? ECLI_LOOSE.exec(reference);
  if (ecli) return { kind: 'ecli', value: ['ECLI', ecli[1], ecli[2], ecli[3], ecli[4].replace(/\.+$/, '')].map(codeKey).join(':') };
  const eli = reference.toLowerCase().includes('/eli/') ? ELI.exec(reference) : null;
  if (eli && reference.trim().split(/\s+/).length === 1) return parseEli(eli[0]);
  const sr = SR.exec(reference);
  if (sr) return { kind: 'sr', value: sr[1] };
  const legi = LEGIFRANCE.exec(reference);
  if (legi) return { kind: 'legifrance', value: `${legi[1].toUpperCase()}${legi[2]}` };
  const celex = CELEX.exec(reference);
  if (celex) {
    const [, sector, year, type, number, suffix] = celex;
    const n = type.length === 1 && sector !== 'C' && sector !== 'E' ? number.padStart(4, '0') : number.padStart(4, '0');
    return { kind: 'celex', value: `${sector}${year}${type}${n}${suffix}`.toUpperCase() };
  }
  const nor = NOR.exec(reference);
  if (nor && /\d{7}/.test(nor[1])) return { kind: 'nor', value: nor[1].toUpperCase() };
  const cjeu = CJEU.exec(reference);
  if (cjeu) return { kind: 'cjeu_case', value: `${cjeu[1].toUpperCase()}-${Number(cjeu[2])}/${cjeu[3]}` };
  const echr = ECHR.exec(reference);
  if (echr && !/\b(?:regulation|directive|verordnung|richtlinie|règlement|decision)\b/i.test(reference)) {
    return { kind: 'echr_application', value: `${Number(echr[1])}/${echr[2]}` };
  }
  const pourvoi = POURVOI.exec(reference);
  if (pourvoi) return { kind: 'case_number', value: codeKey(pourvoi[1]) };
  const az = AKTENZEICHEN.exec(reference);
  if (az) return { kind: 'case_number', value: codeKey(az[1]) };
  return null;
}
