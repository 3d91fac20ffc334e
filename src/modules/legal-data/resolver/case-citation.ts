/**
 * Citation grammar for court decisions: `BGH, Urteil vom 03.02.2026 – VIa ZR 566/22`,
 * `BVerfG, Beschl. v. 13.5.2024, 1 BvR 1078/24`, `Cass. civ. 1re, 12 juillet 2023, n° 22-17.030`,
 * `BAG 21.10.2025 - 9 AZR 266/24`. The court and date narrow the file-number match; a date that
 * contradicts the decision's own date rejects it (strictness).
 */
import { codeKey } from './normalise.js';

export interface ParsedCaseCitation {
  court: string;
  decisionType: string | null;
  /** `YYYY-MM-DD`, or null when the reference gives none. */
  date: string | null;
  caseNumber: string;
}

const MONTHS: Record<string, number> = {
  januar: 1, jan: 1, janvier: 1, january: 1, februar: 2, feb: 2, fevrier: 2, février: 2, february: 2, märz: 3, maerz: 3, mars: 3, march: 3,
  april: 4, avril: 4, apr: 4, mai: 5, may: 5, juni: 6, juin: 6, june: 6, juli: 7, juillet: 7, july: 7, august: 8, aout: 8, août: 8,
  aug: 8, september: 9, septembre: 9, sept: 9, sep: 9, oktober: 10, octobre: 10, october: 10, okt: 10, oct: 10, november: 11,
  novembre: 11, nov: 11, dezember: 12, décembre: 12, decembre: 12, december: 12, dez: 12, dec: 12,
};

const DECISION_TYPES =
  'Urteil|Urt\\.|Beschluss|Beschl\\.|B\\.|U\\.|Gerichtsbescheid|Teilurteil|Versäumnisurteil|Vorlagebeschluss|Entscheidung|Kammerbeschluss|judgment|judgement|decision|order|arrêt|arr\\.|décision|ordonnance';
const DATE = '(\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(?:\\d{4}|\\d{2})(?!\\d)|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}(?:er|\\.)?\\s+[A-Za-zäéû]+\\.?\\s+\\d{4})';
const CASE_CITATION = new RegExp(
  `^([A-ZÄÖÜ][\\wÄÖÜäöüéè.]*(?:\\s+(?:[\\wäöüéè.]+\\.?|\\d+(?:re|e|ème)?)){0,3}?)\\s*,?\\s*(?:(${DECISION_TYPES})\\s*)?,?\\s*(?:vom|v\\.|of|du|from)?\\s*${DATE}\\s*[-–,:;]?\\s*(?:(?:Az\\.?|Aktenzeichen|n°|nº|no\\.?|pourvoi\\s+n°|case)\\s*:?\\s*)?(.+?)\\s*$`,
  'i',
);

function isoDate(text: string): string | null {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return t;
  m = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{2,4})$/.exec(t);
  let day: number, month: number, year: number;
  if (m) {
    day = Number(m[1]);
    month = Number(m[2]);
    year = Number(m[3].length === 2 ? (Number(m[3]) > 40 ? `19${m[3]}` : `20${m[3]}`) : m[3]);
  } else {
    m = /^(\d{1,2})(?:er|\.)?\s+([A-Za-zäéû]+)\.?\s+(\d{4})$/.exec(t);
    if (!m) return null;
    day = Number(m[1]);
    month = MONTHS[m[2].toLowerCase()] ?? 0;
    year = Number(m[3]);
  }
  if (!month || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Parses `Court, Type vom Date – File number`, or null when the reference is not one. */
export function parseCaseCitation(reference: string): ParsedCaseCitation | null {
  const m = CASE_CITATION.exec(reference);
  if (!m) return null;
  const date = isoDate(m[3]);
  const caseNumber = m[4].replace(/[.;,]+$/, '').trim();
  if (!date || !/\d/.test(caseNumber) || caseNumber.length > 40) return null;
  return { court: m[1].replace(/[,.]+$/, '').trim(), decisionType: m[2] ?? null, date, caseNumber };
}

/** True when a decision's court or source fits the court named in a citation (`BGH`, `BVerfG`). */
export function courtMatches(cited: string, court: string | null, source: string): boolean {
  const key = codeKey(cited).replace(/\./g, '');
  const sourceName = codeKey(source.split('/')[1] ?? '');
  const courtKey = codeKey(court ?? '').replace(/\./g, '');
  return sourceName === key || (sourceName.length >= 3 && key.startsWith(sourceName)) || courtKey.startsWith(key) || (courtKey !== '' && key.startsWith(courtKey));
}
