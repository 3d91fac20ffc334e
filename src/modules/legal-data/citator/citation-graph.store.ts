/**
 * Writing the citation graph (citation-graph.entities.ts). The ingest replaces a citing
 * document's links, its unresolved citations and its checkpoint row together, in one
 * transaction, so a reader never sees a document's old links beside its new checkpoint and an
 * interrupted ingest relinks exactly the documents it had not written. Every function works on
 * its own fork of the EntityManager it is given.
 */
import type { EntityManager } from '@mikro-orm/core';
import { backgroundEm, type UnitOfWorkSource } from '../../../context.js';
import { IndexStateEntity } from '../index-state.entity.js';
import type { CitingDocumentGraph } from './citation-graph.js';
import { CitationLinkEntity, CitingDocumentEntity, UnresolvedCitationEntity } from './citation-graph.entities.js';

/** `index_state` key of the fingerprint of the corpus files the whole graph was last built from. */
const GRAPH_STATE = 'citation_graph';

/** Rows written per insert statement (PostgreSQL caps a statement's parameters at 65,535). */
const INSERT_CHUNK = 500;

export interface CitationGraphState {
  corpus: string;
}

/** The fingerprint of the corpus the graph was built from (null: never built whole). */
export async function getCitationGraphState(em: EntityManager): Promise<CitationGraphState | null> {
  const row = await em.fork().findOne(IndexStateEntity, { key: GRAPH_STATE });
  return row ? (row.value as CitationGraphState) : null;
}

export async function setCitationGraphState(em: EntityManager, state: CitationGraphState): Promise<void> {
  await em.fork().upsert(IndexStateEntity, { key: GRAPH_STATE, value: state, updated_at: new Date() });
}

/** The ingest's view of the graph (`CitationGraphStore` in ingest/citation-graph-phase.ts), each call on its own fork. */
export function createCitationGraphStore(orm: UnitOfWorkSource) {
  return {
    citationGraphState: () => getCitationGraphState(backgroundEm(orm)),
    setCitationGraphState: (state: CitationGraphState) => setCitationGraphState(backgroundEm(orm), state),
    citationCheckpoints: () => citationCheckpoints(backgroundEm(orm)),
    replaceCitationGraphs: (graphs: CitingDocumentGraph[]) => replaceCitationGraphs(backgroundEm(orm), graphs),
    removeCitingDocuments: (ids: string[]) => removeCitingDocuments(backgroundEm(orm), ids),
    citationGraphSize: () => citationGraphSize(backgroundEm(orm)),
  };
}

/** Each citing document's checkpoint, by document id (a plain object: it crosses the ingest's IPC channel). */
export async function citationCheckpoints(em: EntityManager): Promise<Record<string, string>> {
  const rows = await em.fork().find(CitingDocumentEntity, {}, { fields: ['id', 'checksum'] });
  return Object.fromEntries(rows.map((r) => [r.id, r.checksum]));
}

/** Replaces the graph rows of each given citing document (links, unresolved citations, checkpoint), all in one transaction. */
export async function replaceCitationGraphs(em: EntityManager, graphs: readonly CitingDocumentGraph[]): Promise<void> {
  if (graphs.length === 0) return;
  const ids = graphs.map((g) => g.document.id);
  await em.fork().transactional(async (tx) => {
    await deleteRows(tx, ids);
    await insertChunked(tx, CitingDocumentEntity, graphs.map((g) => g.document));
    await insertChunked(tx, CitationLinkEntity, graphs.flatMap((g) => g.links.map((l) => ({ ...l, citing_id: g.document.id }))));
    await insertChunked(tx, UnresolvedCitationEntity, graphs.flatMap((g) => g.unresolved.map((u) => ({ ...u, citing_id: g.document.id }))));
  });
}

/** Removes citing documents (and their links) that left the corpus. */
export async function removeCitingDocuments(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await em.fork().transactional((tx) => deleteRows(tx, ids));
}

/** How many citing documents and links the graph holds. */
export async function citationGraphSize(em: EntityManager): Promise<{ documents: number; links: number; unresolved: number }> {
  const fork = em.fork();
  const [documents, links, unresolved] = await Promise.all([fork.count(CitingDocumentEntity, {}), fork.count(CitationLinkEntity, {}), fork.count(UnresolvedCitationEntity, {})]);
  return { documents, links, unresolved };
}

async function deleteRows(tx: EntityManager, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const chunk = ids.slice(i, i + INSERT_CHUNK);
    await tx.nativeDelete(CitationLinkEntity, { citing_id: { $in: chunk } });
    await tx.nativeDelete(UnresolvedCitationEntity, { citing_id: { $in: chunk } });
    await tx.nativeDelete(CitingDocumentEntity, { id: { $in: chunk } });
  }
}

async function insertChunked<T extends object>(tx: EntityManager, entity: unknown, rows: readonly T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.insertMany(entity as never, rows.slice(i, i + INSERT_CHUNK) as never);
  }
}
