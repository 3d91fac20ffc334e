/**
 * The in-memory reference index: every way a reference can name a document (ECLI, CELEX,
 * ELI, file number, act abbreviation or title, article number), built from the search
 * engine's metadata scan at startup and after each ingest step, like the catalogue snapshot.
 */
import type { DocumentMetadata, Namespace } from '../../../domain/legal-document.js';
import { documentPlace, type DocumentPlace } from '../../../engines/search-engine.js';
import { ACT_ALIASES, type ActAlias } from './act-aliases.data.js';
import { abbreviationKey, codeKey, titleKey, unitKey } from './normalise.js';

/** The fields of a document the resolver answers with and filters on. */
export type IndexedDoc = Pick<
  DocumentMetadata,
  'id' | 'source' | 'source_id' | 'namespace' | 'country' | 'title' | 'url' | 'canonical_path' | 'language' | 'court' | 'date' | 'case_number'
>;

/** An act (a code, law, regulation) with its article documents by normalised number. */
export interface ActEntry {
  doc: IndexedDoc;
  units: Map<string, IndexedDoc>;
  /**
   * Paragraphs that the corpus models as documents of their own inside an article
   * (EGBGB `Art. 229 § 3`: `bgbeg/229/3`), by article key, then by paragraph key.
   */
  nested: Map<string, Map<string, IndexedDoc>>;
  /** Language of the act's text (picks among language versions of one act). */
  language: string | null;
}

/** Per source: what the resolver can reach in it (for the coverage report). */
export interface SourceReach {
  documents: number;
  ecli: number;
  celex: number;
  caseNumbers: number;
  acts: number;
  articles: number;
  actNames: number;
  eli: number;
  /** Paragraphs nested in articles (EGBGB `Art. 229 § 3`). */
  nested: number;
  /** Acts named by common-law short titles (`DPA 2018`, `the 2018 Act`). */
  shortTitles: number;
  /** Identifiers such as Swiss SR numbers. */
  identifiers: number;
}

const CELEX = /^[1-9CE]\d{4}[A-Z]{1,2}\d{1,5}[A-Z]?(?:\(\d+\))?$/;
const CELEX_IN_URL = /CELEX[:%3A]+([1-9CE]\d{4}[A-Z]{1,2}\d{1,5}[A-Z]?)/i;
const POURVOI = /\b(\d{2}-\d{2}\.\d{3})\b/g;
const ECHR_APP = /JUD(\d{7})(\d{2})$/;
const CJEU_CELEX = /^6(\d{4})([CT])([JCOPDS])(\d{4})$/;

/** Key of an ECLI: upper case, no spaces, without trailing full stops (cited with or without). */
export function ecliKey(ecli: string): string {
  return codeKey(ecli).replace(/\.+$/, '');
}

/** Key of an act title with German inflection endings removed from every word (`des Bürgerlichen Gesetzbuches`). */
export function stemKey(title: string): string {
  return titleKey(title)
    .split(' ')
    .map((w) => (w.length > 5 ? w.replace(/(?:es|en|em|er|e|s)$/, '') : w))
    .join(' ');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

/** `https://fedlex.data.admin.ch/eli/cc/1999/404/de` -> `eli/cc/1999/404` (scheme, host, language and `/jo` dropped). */
export function eliKey(uri: string): string | null {
  const at = uri.toLowerCase().indexOf('/eli/');
  if (at < 0) return null;
  return uri
    .slice(at + 1)
    .toLowerCase()
    .replace(/[#?].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/(?:jo|oj|[a-z]{2,3})$/, '')
    .replace(/\/+$/, '');
}

export class ReferenceIndex {
  readonly docs = new Map<string, DocumentMetadata>();
  readonly acts = new Map<string, ActEntry>();
  readonly byEcli = new Map<string, IndexedDoc[]>();
  /** CELEX -> documents with their tier (0: source id, 1: identifier of an act, 2: URL). */
  readonly byCelex = new Map<string, { tier: number; doc: IndexedDoc }[]>();
  readonly byCaseNumber = new Map<string, IndexedDoc[]>();
  readonly byIdentifier = new Map<string, IndexedDoc[]>();
  readonly byEli = new Map<string, IndexedDoc[]>();
  /** ECtHR application number `332/57` -> decisions. */
  readonly byApplication = new Map<string, IndexedDoc[]>();
  /** CJEU case number `C-311/18` -> CELEX case-law documents. */
  readonly byCjeuCase = new Map<string, IndexedDoc[]>();
  /** Abbreviation key -> acts (short names, alias table). */
  readonly actNames = new Map<string, ActEntry[]>();
  /** Title key -> acts (full titles, `Loi du 10 août 1915` prefixes, alias table). */
  readonly actTitles = new Map<string, ActEntry[]>();
  /** `2018 act` -> common-law acts of that year: `the 2018 Act` is read only with a country hint. */
  readonly yearActs = new Map<string, ActEntry[]>();
  /** Stem key -> acts (titles with inflection endings removed: genitive and dative forms). */
  readonly actStems = new Map<string, ActEntry[]>();
  /** Alias language by abbreviation key (`dsgvo` -> `de`). */
  readonly aliasLanguage = new Map<string, string>();
  readonly reach = new Map<string, SourceReach>();
  readonly builtAt = Date.now();

  /** Builds the index from metadata batches (the engine's scanMetadata()). */
  static async build(metadata: AsyncIterable<DocumentMetadata[]>, aliases: ActAlias[] = ACT_ALIASES): Promise<ReferenceIndex> {
    const index = new ReferenceIndex();
    const articles: { row: DocumentMetadata; doc: IndexedDoc }[] = [];
    const shortNames = new Map<string, string[]>();
    for await (const rows of metadata) {
      for (const row of rows) {
        const doc = index.addDocument(row);
        if (row.parent_source_id) articles.push({ row, doc });
        else if (row.namespace === 'legislation') {
          index.acts.set(doc.id, { doc, units: new Map(), nested: new Map(), language: row.language });
          shortNames.set(doc.id, row.short_names ?? []);
        }
      }
    }
    for (const { row, doc } of articles) index.attachArticle(row, doc);
    for (const [id, names] of shortNames) index.nameAct(index.acts.get(id)!, names);
    index.applyAliases(aliases);
    return index;
  }

  /**
   * The metadata of these documents (without text, extra fields or summary), from memory;
   * `unknown` lists the ids the index does not hold (written since it was built).
   */
  metadataOf(ids: Iterable<string>): { found: Map<string, DocumentMetadata>; unknown: string[] } {
    const found = new Map<string, DocumentMetadata>();
    const unknown: string[] = [];
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) found.set(id, doc);
      else unknown.push(id);
    }
    return { found, unknown };
  }

  /**
   * Where these documents stand in their acts (search's section context), from memory;
   * `unknown` lists the ids the index does not hold (written since it was built).
   */
  placesOf(ids: Iterable<string>): { places: Map<string, DocumentPlace>; unknown: string[] } {
    const { found, unknown } = this.metadataOf(ids);
    const places = new Map<string, DocumentPlace>();
    for (const [id, doc] of found) {
      const place = documentPlace(doc.source, doc.parent_source_id, doc.canonical_path);
      if (place) places.set(id, place);
    }
    return { places, unknown };
  }

  private reachOf(source: string): SourceReach {
    let r = this.reach.get(source);
    if (!r) {
      r = { documents: 0, ecli: 0, celex: 0, caseNumbers: 0, acts: 0, articles: 0, actNames: 0, eli: 0, nested: 0, shortTitles: 0, identifiers: 0 };
      this.reach.set(source, r);
    }
    return r;
  }

  private addDocument(row: DocumentMetadata): IndexedDoc {
    // The whole row is kept (not only the fields the resolver reads): search shapes its hits
    // from it instead of reading the documents' metadata from the engine (metadataOf).
    const doc: IndexedDoc = row;
    this.docs.set(row.id, row);
    const reach = this.reachOf(row.source);
    reach.documents += 1;
    const isPart = Boolean(row.parent_source_id);

    if (row.ecli) {
      push(this.byEcli, ecliKey(row.ecli), doc);
      reach.ecli += 1;
      const app = ECHR_APP.exec(codeKey(row.ecli));
      if (app && row.ecli.toUpperCase().includes(':ECHR:')) push(this.byApplication, `${Number(app[1])}/${app[2]}`, doc);
    }
    if (row.case_number) {
      for (const part of row.case_number.split(/\s*[;,]\s*/)) if (part) push(this.byCaseNumber, codeKey(part), doc);
      reach.caseNumbers += 1;
    }
    if (row.namespace === 'case_law' && row.country === 'FR') {
      // Cour de cassation decisions carry their pourvoi number only in the title.
      for (const m of row.title.matchAll(POURVOI)) push(this.byCaseNumber, codeKey(m[1]), doc);
    }
    const sourceIdCode = codeKey(row.source_id).replace(/^[A-Z]+-(?=[1-9CE]\d{4}[A-Z])/, '');
    let celexTier: number | null = null;
    if (CELEX.test(codeKey(row.source_id))) celexTier = 0;
    if (celexTier === 0) this.addCelex(codeKey(row.source_id), 0, doc);
    else if (CELEX.test(sourceIdCode)) this.addCelex(sourceIdCode, 1, doc);
    if (row.identifier && !isPart) {
      const id = codeKey(row.identifier);
      push(this.byIdentifier, id, doc);
      reach.identifiers += 1;
      if (CELEX.test(id) && celexTier !== 0) this.addCelex(id, 1, doc);
    }
    if (row.url && !isPart) {
      const m = CELEX_IN_URL.exec(row.url);
      if (m) this.addCelex(m[1].toUpperCase(), 2, doc);
    }
    if (/^(?:LEGI|JORF|JURI|CETA|KALI|CNIL)[A-Z]{4}\d{12}$/.test(codeKey(row.source_id))) push(this.byIdentifier, codeKey(row.source_id), doc);
    if (row.eli_uri && !isPart) {
      const key = eliKey(row.eli_uri);
      if (key) {
        push(this.byEli, key, doc);
        reach.eli += 1;
      }
    }
    return doc;
  }

  private addCelex(celex: string, tier: number, doc: IndexedDoc): void {
    const list = this.byCelex.get(celex) ?? [];
    if (!list.some((e) => e.doc === doc)) list.push({ tier, doc });
    this.byCelex.set(celex, list);
    if (list.length === 1 || tier === 0) this.reachOf(doc.source).celex += 1;
    const cjeu = CJEU_CELEX.exec(celex);
    if (cjeu && doc.namespace === 'case_law') push(this.byCjeuCase, `${cjeu[2]}-${Number(cjeu[4])}/${cjeu[1].slice(2)}`, doc);
  }

  private unitActs: Map<string, string> | null = null;

  /**
   * The act whose article (or nested paragraph) `id` is (one of its `units` or `nested`); undefined for
   * any other document. Stored on each link (`cited_act_id`) so an act's roll-up is one lookup.
   */
  actOfUnit(id: string): string | undefined {
    if (!this.unitActs) {
      this.unitActs = new Map();
      for (const [actId, act] of this.acts) {
        for (const unit of act.units.values()) this.unitActs.set(unit.id, actId);
        for (const paragraphs of act.nested.values()) for (const unit of paragraphs.values()) this.unitActs.set(unit.id, actId);
      }
    }
    return this.unitActs.get(id);
  }

  private attachArticle(row: DocumentMetadata, doc: IndexedDoc): void {
    const act = this.acts.get(`${row.source}/${row.parent_source_id}`);
    if (!act || !row.unit_number) return;
    // `<act>/<article>/<paragraph>`: a paragraph nested in an article, not an article of the act.
    const inner = row.source_id.startsWith(`${row.parent_source_id}/`) ? row.source_id.slice(row.parent_source_id!.length + 1).split('/') : [];
    if (inner.length === 2 && inner[0] && inner[1] && !row.source_id.includes('~')) {
      const article = unitKey(inner[0]);
      const paragraphs = act.nested.get(article) ?? new Map<string, IndexedDoc>();
      paragraphs.set(unitKey(inner[1]), doc);
      act.nested.set(article, paragraphs);
      this.reachOf(row.source).articles += 1;
      this.reachOf(row.source).nested += 1;
      return;
    }
    const key = unitKey(row.unit_number);
    const existing = act.units.get(key);
    // Alternate versions (`…~2`) never replace the main one.
    if (existing && (doc.source_id.includes('~') || !existing.source_id.includes('~'))) return;
    act.units.set(key, doc);
    this.reachOf(row.source).articles += 1;
  }

  private nameAct(act: ActEntry, shortNames: string[]): void {
    this.reachOf(act.doc.source).acts += 1;
    for (const name of shortNames) this.addActName(act, name);
    this.addActTitle(act, act.doc.title);
    // `Loi du 10 août 1915 concernant …` is cited as `loi (modifiée) du 10 août 1915`.
    const dated = /^((?:loi|r[eè]glement grand-ducal|arr[eê]t[eé] grand-ducal|ordonnance|d[eé]cret)\s+du\s+\d{1,2}(?:er)?\s+\S+\s+\d{4})\b/i.exec(act.doc.title);
    if (dated) this.addActTitle(act, dated[1]);
    const shortTitles = commonLawShortTitles(act.doc.title);
    for (const name of shortTitles) {
      if (/^\d{4} Act$/.test(name)) push(this.yearActs, titleKey(name), act);
      else this.addActTitle(act, name);
    }
    if (shortTitles.length) this.reachOf(act.doc.source).shortTitles += 1;
  }

  private addActName(act: ActEntry, name: string): void {
    const key = abbreviationKey(name);
    if (!key) return;
    const before = this.actNames.get(key)?.length ?? 0;
    push(this.actNames, key, act);
    if ((this.actNames.get(key)?.length ?? 0) > before) this.reachOf(act.doc.source).actNames += 1;
    // `SGB V` and `SGB 5` are the same book: index the other numeral spelling too.
    const roman = /^(.*\S)\s+([ivxlc]+|\d+)$/i.exec(name.trim());
    if (roman) {
      const alt = /^\d+$/.test(roman[2]) ? toRoman(Number(roman[2])) : String(fromRoman(roman[2]));
      if (alt && alt !== '0') push(this.actNames, abbreviationKey(`${roman[1]} ${alt}`), act);
    }
  }

  private addActTitle(act: ActEntry, title: string): void {
    const key = titleKey(title);
    if (key) push(this.actTitles, key, act);
    const stem = stemKey(title);
    if (stem.includes(' ') || stem.length > 8) push(this.actStems, stem, act);
  }

  private applyAliases(aliases: ActAlias[]): void {
    for (const alias of aliases) {
      const act = [...this.acts.values()].find(
        (a) =>
          a.doc.source === alias.source &&
          (alias.sourceId ? a.doc.source_id === alias.sourceId : titleKey(a.doc.title) === titleKey(alias.title ?? '')),
      );
      if (!act) continue;
      this.addActName(act, alias.alias);
      this.addActTitle(act, alias.alias);
      if (alias.language) this.aliasLanguage.set(abbreviationKey(alias.alias), alias.language);
    }
  }
}

const MINOR_WORDS = new Set(['of', 'and', 'the', 'for', 'on', 'in', 'to', 'a', 'an']);

/**
 * Names under which common-law acts are cited, from the title `… Act YYYY`: the parenthesised
 * part (`Criminal Justice (Theft and Fraud Offences) Act 2001` -> `Theft and Fraud Offences Act
 * 2001`), the initials (`Data Protection Act 2018` -> `DPA 2018`, `FOI Act 2014`) and `the 2018 Act`.
 */
export function commonLawShortTitles(title: string): string[] {
  const m = /^(.*\S)\s+Act,?\s+((?:1[6-9]|20)\d{2})$/.exec(title.trim());
  if (!m) return [];
  const [, name, year] = m;
  const out = [`${year} Act`];
  const inner = /\(([^()]{3,80})\)/.exec(name);
  if (inner) out.push(`${inner[1]} Act ${year}`);
  const words = name.replace(/[()]/g, ' ').split(/\s+/).filter((w) => w && !MINOR_WORDS.has(w.toLowerCase()));
  // Initials with and without the minor words (`Freedom of Information` -> `FOI`, `FI`).
  const all = name.replace(/[()]/g, ' ').split(/[\s-]+/).filter(Boolean);
  for (const initials of new Set([words.map((w) => w[0]).join('').toUpperCase(), all.map((w) => w[0]).join('').toUpperCase()])) {
    if (initials.length >= 2) out.push(`${initials}A ${year}`, `${initials} Act ${year}`);
  }
  return out;
}

function toRoman(n: number): string {
  if (!Number.isInteger(n) || n <= 0 || n > 40) return '';
  const table: [number, string][] = [[40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  for (const [value, numeral] of table) while (n >= value) (out += numeral), (n -= value);
  return out;
}

function fromRoman(s: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  let total = 0;
  const lower = s.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const v = values[lower[i]] ?? 0;
    const next = values[lower[i + 1]] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}
