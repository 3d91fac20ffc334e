/**
 * Citation grammar for court decisions: `BGH, Urteil vom 03.02.2026 – VIa ZR 566/22`,
 * `BVerfG, Beschl. v. 13.5.2024, 1 BvR 1078/24`, `Cass. civ. 1re, 12 juillet 2023, n° 22-17.030`,
 * `BAG 21.10.2025 - 9 AZR 266/24`. The court and date narrow the file-number match; a date that
 * contradicts the decision's own date rejects it (strictness).
 */
import { codeKey, foldText } from './normalise.js';

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
  janv: 1, févr: 2, fevr: 2, avr: 4, juil: 7, juill: 7, déc: 12, jänner: 1, jänn: 1, jun: 6, jul: 7, mär: 3, mar: 3,
};

const DECISION_TYPES =
  '(?:Beschluss|Urteil|Beschl\\.|Urt\\.)\\s+(?:der\\s+\\d\\.\\s*Kammer\\s+)?des\\s+\\p{L}+\\s+Senats|Endurteil|Hinweisbeschluss|Anerkenntnisurteil|Schlussurteil|Zwischenurteil|Nichtannahmebeschluss|Urteil|Urt\\.|Beschluss|Beschl\\.|B\\.|U\\.|Gerichtsbescheid|Teilurteil|Versäumnisurteil|Vorlagebeschluss|Entscheidung|Kammerbeschluss|judgment|judgement|decision|order|arrêt|arr\\.|décision|ordonnance';
const DATE = '(\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(?:\\d{4}|\\d{2})(?!\\d)|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}(?:er|\\.)?\\s+[A-Za-zäéûÄ]+\\.?\\s+\\d{4})';
const CASE_CITATION = new RegExp(
  `^([A-ZÄÖÜ][\\wÄÖÜäöüéè.-]*(?:,?\\s+(?:[\\wäöüéèÉ.'-]+\\.?|\\d+(?:re|e|ème)?)){0,4}?)\\s*,?\\s*(?:(${DECISION_TYPES})\\s*)?,?\\s*(?:vom|v\\.|of|du|from)?\\s*${DATE}\\s*[-–,:;]?\\s*(?:(?:Az\\.?|Aktenzeichen|n°|nº|no\\.?|nos|pourvoi\\s+(?:n°|nº|no\\.?|n\\.)|req\\.\\s*n°|case|in\\s+case|aff\\.|affaire|Rs\\.|Rechtssache)\\s*:?\\s*)?(.+?)\\s*$`,
  'iu',
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
    m = /^(\d{1,2})(?:er|\.)?\s+([A-Za-zäéûÄ]+)\.?\s+(\d{4})$/.exec(t);
    if (!m) return null;
    day = Number(m[1]);
    month = MONTHS[m[2].toLowerCase()] ?? 0;
    year = Number(m[3]);
  }
  if (!month || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `judgment of 12 February 2026 in Case C-313/24`, `arrêt du … dans l'affaire C-…`: the Court of Justice. */
const CJEU_JUDGMENT = new RegExp(
  `^(?:the\\s+)?(judgment|order|arrêt|ordonnance|Urteil|Beschluss)\\s+(?:of\\s+the\\s+(?:General\\s+)?Court\\s+(?:of\\s+Justice\\s+)?|de\\s+la\\s+Cour\\s+)?(?:of|du|vom)\\s+${DATE}\\s*,?\\s*(?:(?:in|dans)\\s+)?(?:(?:l'affaire|Case|Rechtssache|Rs\\.|aff\\.)\\s+)?([CT]\\s*-\\s*\\d{1,4}\\s*\\/\\s*\\d{2})\\s*$`,
  'i',
);

/** `CJEU, Case C-48/24, judgment of 12 February 2026`: the number before the date. */
const CJEU_CASE_FIRST = new RegExp(
  `^(?:(?:CJEU|ECJ|CJUE|CJCE|EuGH|EuG|General\\s+Court|Court\\s+of\\s+Justice)\\s*,?\\s*)?(?:Case|affaire|aff\\.|Rs\\.|Rechtssache)\\s+([CT]\\s*-\\s*\\d{1,4}\\s*\\/\\s*\\d{2})\\s*,?\\s*(judgment|order|arrêt|ordonnance|Urteil|Beschluss)\\s+(?:of|du|vom)\\s+${DATE}\\s*$`,
  'i',
);

/** Parses `Court, Type vom Date – File number`, or null when the reference is not one. */
export function parseCaseCitation(reference: string): ParsedCaseCitation | null {
  const first = CJEU_CASE_FIRST.exec(reference);
  if (first) {
    const date = isoDate(first[3]);
    return date ? { court: /^T/i.test(first[1]) ? 'General Court' : 'Court of Justice', decisionType: first[2], date, caseNumber: first[1].replace(/\s+/g, '') } : null;
  }
  const cjeu = CJEU_JUDGMENT.exec(reference);
  if (cjeu) {
    const date = isoDate(cjeu[2]);
    return date ? { court: /^T/i.test(cjeu[3]) ? 'General Court' : 'Court of Justice', decisionType: cjeu[1], date, caseNumber: cjeu[3].replace(/\s+/g, '') } : null;
  }
  const m = CASE_CITATION.exec(reference);
  if (!m) return null;
  const date = isoDate(m[3]);
  // `… – 2 AZR 160/24 –`, `BVerwG 20 F 5/09`: a closing dash, the court repeated before the number.
  const court = m[1].replace(/[,.]+$/, '').trim();
  // What follows the number (`, Rn. 12`, `, NJW 2026, 100`, ` -, juris`, `, publié au bulletin`,
  // `, ECLI:…`) is not part of it: the number ends at the first comma.
  const numberPart = m[4].length > 200 ? '' : m[4].split(',')[0];
  if (!numberPart || numberPart.length > 60) return null;
  let caseNumber = numberPart.replace(/[\s.;,–-]+$/, '').trim();
  if (/^[A-Z][A-Za-z]{1,6}$/.test(court) && caseNumber.startsWith(`${court} `) && /\d/.test(caseNumber.slice(court.length))) caseNumber = caseNumber.slice(court.length + 1);
  if (!date || !/\d/.test(caseNumber) || caseNumber.length > 40) return null;
  return { court, decisionType: m[2] ?? null, date, caseNumber };
}

/** True when a decision's court or source fits the court named in a citation (`BGH`, `BVerfG`). */
export function courtMatches(cited: string, court: string | null, source: string): boolean {
  const key = codeKey(cited).replace(/\./g, '');
  const sourceName = codeKey(source.split('/')[1] ?? '');
  const courtKey = codeKey(court ?? '').replace(/\./g, '');
  if (sourceName === key || (sourceName.length >= 3 && key.startsWith(sourceName)) || courtKey.startsWith(key) || (courtKey !== '' && key.startsWith(courtKey))) return true;
  return courtWordsMatch(cited, court, source);
}

/**
 * Court abbreviations written out (`OLG` -> Oberlandesgericht, `CAA` -> cour administrative
 * d'appel): the cited court fits when each of its words (place names included) is in the
 * decision's court name, or in the name its source stands for.
 */
const COURT_WORDS: [RegExp, string][] = [
  [/^(?:olg|oberlandesgericht)$/, 'oberlandesgericht'],
  [/^(?:ovg|oberverwaltungsgericht)$/, 'oberverwaltungsgericht'],
  [/^(?:vgh|verwaltungsgerichtshof)$/, 'verwaltungsgerichtshof'],
  [/^(?:lg|landgericht)$/, 'landgericht'],
  [/^(?:ag|amtsgericht)$/, 'amtsgericht'],
  [/^(?:vg|verwaltungsgericht)$/, 'verwaltungsgericht'],
  [/^(?:lag|landesarbeitsgericht)$/, 'landesarbeitsgericht'],
  [/^(?:arbg|arbeitsgericht)$/, 'arbeitsgericht'],
  [/^(?:lsg|landessozialgericht)$/, 'landessozialgericht'],
  [/^(?:sg|sozialgericht)$/, 'sozialgericht'],
  [/^(?:fg|finanzgericht)$/, 'finanzgericht'],
  [/^(?:kg|kammergericht)$/, 'kammergericht'],
  [/^(?:cass|cassation|civ|com|crim|soc|ccass)$/, 'cassation'],
  [/^(?:ce|cetat|conseil)$/, 'conseiletat'],
  [/^(?:caa)$/, 'couradministrativeappel'],
  [/^(?:ta)$/, 'tribunaladministratif'],
  [/^(?:eugh|cjue|cjeu|ecj|cjce|gerichtshof)$/, 'courtofjustice'],
  [/^(?:eug|tue)$/, 'generalcourt'],
];
/** Words of a cited court that do not name it (chambers, formations, articles). */
const CHAMBER_WORDS = /^(?:a|m|am|main|i|br|breisgau|oder|donau|saale|opf|\d+(?:re|er|e|eme|ème|a)?|[ivx]+|ch|chambre|civ\d?|ass|plen|mixte|sect|section|d|de|du|la|l|des|der|des|senat|zivilsenat|strafsenat|kammer|etat|d'etat)$/;

function courtTokens(text: string): string[] {
  return foldText(text)
    .replace(/\bconseil d.?etat\b/g, 'ce')
    .replace(/\bcour administrative d.?appel\b/g, 'caa')
    .replace(/\btribunal administratif\b/g, 'ta')
    .replace(/\bcour de cassation\b/g, 'cass')
    .replace(/\bsection du contentieux\b/g, 'ce')
    .replace(/\b(?:court of justice|cour de justice)\b/g, 'cjeu')
    .replace(/\bgeneral court\b/g, 'eug')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => COURT_WORDS.find(([re]) => re.test(w))?.[1] ?? w)
    // `Hessisches LAG` / `LAG Hessen`: the place's adjective and its name meet at the stem.
    .map((w) => (w.length > 5 ? w.replace(/(?:isches|ischen|ischer|ische|isch|en|es)$/, '') : w));
}

/** Court names a source stands for when its decisions carry none (Judilibre: the Cour de cassation). */
const SOURCE_COURTS: Record<string, string> = { 'FR/Judilibre': 'Cour de cassation', 'FR/CASS': 'Cour de cassation', 'EU/CURIA': 'Court of Justice' };

function courtWordsMatch(cited: string, court: string | null, source: string): boolean {
  const wanted = courtTokens(cited).filter((w) => !CHAMBER_WORDS.test(w));
  if (!wanted.length) return false;
  const have = new Set([...courtTokens(court ?? ''), ...courtTokens(SOURCE_COURTS[source] ?? '')]);
  // A court with no place (`CE`, `Cass.`) names the court; a place must then match too.
  return wanted.every((w) => have.has(w) || [...have].some((h) => h.length >= 4 && h.startsWith(w)));
}
