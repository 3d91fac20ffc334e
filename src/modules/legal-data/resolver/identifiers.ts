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
  | 'case_number';

export interface ParsedIdentifier {
  kind: IdentifierKind;
  /** The normalised value looked up in the index. */
  value: string;
  /** For ELI URIs naming an article: its number. */
  unit?: string;
}

const ECLI = /\bECLI\s*[:.]?\s*([A-Z]{2})\s*:\s*([A-Z0-9.]{1,12})\s*:\s*(\d{4})\s*:\s*([A-Z0-9.]{1,30})/i;
const ECLI_LOOSE = /^ECLI\s*[:.\s]\s*([A-Z]{2})\s*[:\s]\s*([A-Z0-9.]{1,12})\s*[:\s]\s*(\d{4})\s*[:\s]\s*([A-Z0-9.]{1,30})$/i;
const CELEX = /^(?:CELEX\s*(?:number|no\.?|nr\.?)?\s*[:.]?\s*)?([1-9CE])\s*(\d{4})\s*([A-Z]{1,2})\s*(\d{1,5})([A-Z]?(?:\(\d+\))?)$/i;
const LEGIFRANCE = /\b((?:LEGI|JORF|JURI|CETA|KALI|CNIL)(?:ARTI|TEXT|SCTA))\s*(\d{12})\b/i;
const NOR = /^(?:NOR\s*[:.]?\s*)?([A-Z]{4}\d{7}[A-Z])$/i;
const ECHR = /(?:\b(?:no|nos|n°|nº|app(?:lication)?\.?\s*no|requête\s*n°|Beschwerde-?Nr)\.?\s*)(\d{1,6})\s*\/\s*(\d{2})\b/i;
const CJEU = /^(?:(?:case|cases|affaire|aff\.|rs\.|rechtssache|causa)\s+)?([CTF])\s*-\s*(\d{1,4})\s*\/\s*(\d{2})(?:\s*(?:P|PPU|RENV|REV|DEP|OP|AJ|SA|R|INT))?$/i;
const ELI = /(?:https?:\/\/)?[^\s]*\/eli\/[^\s]+/i;
const ELI_ARTICLE = /(?:\/|#)(?:art(?:icle)?|section|sec|par)[_/-]?(\d+[a-z]?(?:[-_]\d+)*)\/?$/i;
const POURVOI = /^(?:(?:pourvoi\s+)?(?:n°|nº|no\.?|num[ée]ro)\s*)?(\d{2}\s*-\s*\d{2}\s*\.\s*\d{3})$/i;
/** German file numbers: `VI ZR 174/22`, `1 BvR 2103/16`, `B 2 U 3/24 B`, `IV R 17/23`, `5 AZR 118/23`. */
const AKTENZEICHEN = /^(?:Az\.?\s*:?\s*)?((?:[IVX]+[a-z]?|\d{1,2}|[A-Z])\s+(?:\d{1,2}\s+)?[A-Z][A-Za-z]{0,5}(?:\s+[A-Z]{1,3})?\s+\d{1,5}\s*\/\s*\d{2}(?:\s+[A-Z]{1,2})?)$/;

/** ECLI, CELEX and the other identifiers, or null when the reference is not one. */
export function parseIdentifier(reference: string): ParsedIdentifier | null {
  const ecli = ECLI.exec(reference) ?? ECLI_LOOSE.exec(reference);
  if (ecli) return { kind: 'ecli', value: ['ECLI', ecli[1], ecli[2], ecli[3], ecli[4]].map(codeKey).join(':') };
  const eli = reference.toLowerCase().includes('/eli/') ? ELI.exec(reference) : null;
  if (eli && reference.trim().split(/\s+/).length === 1) {
    const unit = ELI_ARTICLE.exec(eli[0]);
    return { kind: 'eli', value: eli[0].replace(ELI_ARTICLE, ''), unit: unit ? unit[1].replace(/_/g, '-') : undefined };
  }
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
