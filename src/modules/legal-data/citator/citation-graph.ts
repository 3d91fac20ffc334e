/**
 * One citing document's part of the citation graph (issue 37, item 1): what the ingest stores for
 * it, made by the in-context linker (link-citations.ts) with the document's country and language
 * as the hint. Pure: the reference index in, rows out; the store writes them (citation-graph.store.ts).
 */
import { createHash } from 'node:crypto';
import type { LegalDocument } from '../../../domain/legal-document.js';
import type { ReferenceIndex } from '../resolver/reference-index.js';
import { documentId } from '../../../domain/legal-document.js';
import { linkCitations, type CitatorDocument, type UnresolvedReason } from './link-citations.js';

/** Characters of context kept on each side of a citation for its passage snippet. */
const SNIPPET_REACH = 160;

/** The citing document's metadata the cited-by list filters, sorts and shows without the engine. */
export interface CitingDocumentRow {
  id: string;
  source: string;
  source_id: string;
  namespace: string;
  country: string;
  language: string | null;
  court: string | null;
  court_tier: number | null;
  date: string | null;
  title: string;
  /** Hash of everything the links were made from (the document and the corpus's acts): the document's checkpoint. */
  checksum: string;
}

export interface CitationLinkRow {
  /** Order of appearance in the citing text (0, 1, …), shared by links and unresolved citations. */
  seq: number;
  cited_id: string;
  cited_source: string;
  cited_source_id: string;
  /** The act of the cited article (or nested paragraph); the cited document itself for any other link. */
  cited_act_id: string;
  start: number;
  end: number;
  pinpoint: string;
  citation: string;
  carried: boolean;
  /** The passage around the citation; the cited unit is `snippet.slice(highlight_start, highlight_end)`. */
  snippet: string;
  highlight_start: number;
  highlight_end: number;
}

export interface UnresolvedCitationRow {
  seq: number;
  start: number;
  end: number;
  citation: string;
  reason: UnresolvedReason;
}

export interface CitingDocumentGraph {
  document: CitingDocumentRow;
  links: CitationLinkRow[];
  unresolved: UnresolvedCitationRow[];
}

/** Namespaces whose documents are linked: decisions, guidance/doctrine, and legislation's articles (see docs/citator.md, "the graph"). */
export function linksCitations(namespace: string): boolean {
  return namespace === 'case_law' || namespace === 'doctrine' || namespace === 'legislation';
}

/**
 * What the linker reads of `doc`, or null when it is not linked: a legislation document is linked
 * when it is an article of an act the index knows (its own act is the context of its bare units);
 * an act's own text repeats its articles' (the links would be counted twice) or, for an act
 * without articles in the corpus, has no units to carry to.
 */
export function citatorDocument(index: ReferenceIndex, doc: LegalDocument): CitatorDocument | null {
  const base = { text: doc.text, country: doc.country, language: doc.language, namespace: doc.namespace };
  if (doc.namespace !== 'legislation') return base;
  const act = doc.parent_source_id ? index.acts.get(documentId(doc.source, doc.parent_source_id)) : undefined;
  return act ? { ...base, own: { id: doc.id, act, title: doc.title } } : null;
}

/**
 * The checkpoint of a citing document: its text and the metadata stored with it, and `actsKey`
 * (the fingerprint of the corpus's legislation files, which decide what a citation resolves to).
 * Equal checksums: the stored links are those the linker would make now.
 */
export function citingChecksum(doc: LegalDocument, actsKey: string): string {
  const meta = [doc.namespace, doc.country, doc.language, doc.court, doc.court_tier, doc.date, doc.title];
  return createHash('sha256').update(actsKey).update('\0').update(JSON.stringify(meta)).update('\0').update(doc.text).digest('base64url');
}

/** Links `doc`'s citations (`input`: citatorDocument's) and returns the rows to store for it. */
export function graphOfDocument(index: ReferenceIndex, doc: LegalDocument, checksum: string, input: CitatorDocument): CitingDocumentGraph {
  const result = linkCitations(index, input);
  const entries = [
    ...result.links.map((link) => ({ at: link.start, link, unresolved: null })),
    ...result.unresolved.map((u) => ({ at: u.start, link: null, unresolved: u })),
  ].sort((a, b) => a.at - b.at);
  const links: CitationLinkRow[] = [];
  const unresolved: UnresolvedCitationRow[] = [];
  entries.forEach((entry, seq) => {
    if (entry.link) {
      const { link } = entry;
      links.push({
        seq,
        cited_id: link.target.id,
        cited_source: link.target.source,
        cited_source_id: link.target.source_id,
        cited_act_id: index.actOfUnit(link.target.id) ?? link.target.id,
        start: link.start,
        end: link.end,
        pinpoint: link.pinpoint,
        citation: link.citation,
        carried: link.carried,
        ...snippetAround(doc.text, link.start, link.end),
      });
    } else {
      const u = entry.unresolved!;
      unresolved.push({ seq, start: u.start, end: u.end, citation: u.citation, reason: u.reason });
    }
  });
  return {
    document: {
      id: doc.id,
      source: doc.source,
      source_id: doc.source_id,
      namespace: doc.namespace,
      country: doc.country,
      language: doc.language,
      court: doc.court,
      court_tier: doc.court_tier,
      date: doc.date,
      title: doc.title,
      checksum,
    },
    links,
    unresolved,
  };
}

/** The passage around `text[start, end)`, cut at word boundaries, whitespace folded, with the citation's place in it. */
export function snippetAround(text: string, start: number, end: number): { snippet: string; highlight_start: number; highlight_end: number } {
  let from = Math.max(0, start - SNIPPET_REACH);
  let to = Math.min(text.length, end + SNIPPET_REACH);
  if (from > 0) from = wordStart(text, from, start);
  if (to < text.length) to = wordEnd(text, to, end);
  const head = fold(text.slice(from, start));
  const cited = fold(text.slice(start, end));
  const tail = fold(text.slice(end, to));
  const prefix = (from > 0 ? '…' : '') + head.trimStart();
  const suffix = tail.trimEnd() + (to < text.length ? '…' : '');
  return { snippet: prefix + cited + suffix, highlight_start: prefix.length, highlight_end: prefix.length + cited.length };
}

function fold(s: string): string {
  return s.replace(/\s+/g, ' ');
}

/** The first word start at or after `at` (not past `limit`). */
function wordStart(text: string, at: number, limit: number): number {
  const space = text.slice(at, limit).search(/\s/);
  return space < 0 ? at : at + space + 1;
}

/** The last word end at or before `at` (not before `limit`). */
function wordEnd(text: string, at: number, limit: number): number {
  const space = text.slice(limit, at).search(/\s\S*$/);
  return space < 0 ? at : limit + space;
}
