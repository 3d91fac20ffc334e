/**
 * The citation graph (issue 37): one row per citing document (its metadata for the cited-by list,
 * and its checkpoint), its links to the cited documents in order of appearance, and the citations
 * it makes that resolve to nothing sure, as text with the reason. Written by the ingest
 * (citation-graph.store.ts: a document's rows are replaced together, in one transaction), read
 * by the cited-by and cites queries. Why PostgreSQL rather than the search engine: docs/resolver.md.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const CitingDocumentEntity = defineEntity({
  name: 'CitingDocument',
  tableName: 'citing_document',
  properties: {
    id: p.text().primary(),
    source: p.text(),
    source_id: p.text(),
    namespace: p.text(),
    country: p.text(),
    language: p.text().nullable(),
    court: p.text().nullable(),
    court_tier: p.integer().nullable(),
    /** As the corpus writes it (`2024-03-01`, sometimes `2024` or `2024-03`): sorts and compares as text. */
    date: p.text().nullable(),
    title: p.text(),
    checksum: p.text(),
  },
});
export type CitingDocument = InferEntity<typeof CitingDocumentEntity>;

export const CitationLinkEntity = defineEntity({
  name: 'CitationLink',
  tableName: 'citation_link',
  indexes: [
    { name: 'citation_link_cited_id_index', properties: ['cited_id', 'citing_id'] },
    { name: 'citation_link_cited_act_id_index', properties: ['cited_act_id', 'citing_id', 'seq'] },
  ],
  properties: {
    citing_id: p.text().primary(),
    seq: p.integer().primary(),
    cited_id: p.text(),
    cited_source: p.text(),
    cited_source_id: p.text(),
    /** The cited document's act (an article's act; the cited document itself when it is not an article): an act's roll-up reads this. */
    cited_act_id: p.text(),
    start: p.integer(),
    end: p.integer(),
    pinpoint: p.text(),
    citation: p.text(),
    carried: p.boolean(),
    snippet: p.text(),
    highlight_start: p.integer(),
    highlight_end: p.integer(),
  },
});
export type CitationLink = InferEntity<typeof CitationLinkEntity>;

export const UnresolvedCitationEntity = defineEntity({
  name: 'UnresolvedCitation',
  tableName: 'unresolved_citation',
  properties: {
    citing_id: p.text().primary(),
    seq: p.integer().primary(),
    start: p.integer(),
    end: p.integer(),
    citation: p.text(),
    reason: p.text(),
  },
});
export type UnresolvedCitation = InferEntity<typeof UnresolvedCitationEntity>;
