/**
 * Writes of the analytics tables: a batch of events summed per (dimension, day, account) and
 * added with one multi-row upsert per chunk, inside one transaction that first claims the
 * batch's key, so a batch written twice is added once. Raw SQL: additive upserts (`on conflict
 * do update set x = x + excluded.x`) are not expressible through the entity API.
 */
import type { EntityManager } from '@mikro-orm/core';
import { sqlRows, sqlRun } from '../../util/raw-sql.js';
import type { AnalyticsEvent, DocumentMeta, Measures } from './analytics-events.js';

/** Rows per statement: 10 parameters each, well under PostgreSQL's 65,535. */
const ROWS_PER_UPSERT = 1000;
/** Batch keys are kept this long: a retry or a spill replay comes within it. */
const BATCH_KEY_DAYS = 7;

interface SummedRow extends Measures {
  kind: string;
  scope: string;
  item: string;
  day: string;
  account: string;
}

/** Adds a batch of events to the daily aggregates, once per `key`. */
export async function addAnalyticsBatch(em: EntityManager, key: string, events: readonly AnalyticsEvent[]): Promise<void> {
  const rows = summed(events);
  const documents = distinctDocuments(events);
  await em.transactional(async (tx) => {
    const claimed = await sqlRows(tx, 'insert into analytics_written_batch (batch_key, written_at) values (?, ?) on conflict (batch_key) do nothing returning batch_key', [key, new Date()]);
    if (claimed.length === 0) return; // written before: its outcome was unknown to the writer
    for (let at = 0; at < rows.length; at += ROWS_PER_UPSERT) {
      const chunk = rows.slice(at, at + ROWS_PER_UPSERT);
      await sqlRun(
        tx,
        `insert into analytics_account_day (kind, scope, item, day, account, searches, hits, documents, resolutions, calls) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         on conflict (kind, scope, item, day, account) do update set searches = analytics_account_day.searches + excluded.searches,
           hits = analytics_account_day.hits + excluded.hits, documents = analytics_account_day.documents + excluded.documents,
           resolutions = analytics_account_day.resolutions + excluded.resolutions, calls = analytics_account_day.calls + excluded.calls`,
        chunk.flatMap((r) => [r.kind, r.scope, r.item, r.day, r.account, r.searches, r.hits, r.documents, r.resolutions, r.calls]),
      );
    }
    for (let at = 0; at < documents.length; at += ROWS_PER_UPSERT) {
      const chunk = documents.slice(at, at + ROWS_PER_UPSERT);
      await sqlRun(
        tx,
        `insert into analytics_document (source, source_id, namespace, country) values ${chunk.map(() => '(?, ?, ?, ?)').join(', ')} on conflict (source, source_id) do nothing`,
        chunk.flatMap((d) => [d.source, d.source_id, d.namespace, d.country]),
      );
    }
    await sqlRun(tx, 'delete from analytics_written_batch where written_at < ?', [new Date(Date.now() - BATCH_KEY_DAYS * 86_400_000)]);
  });
}

/** One row per (dimension, day, account): a batch's events summed. */
function summed(events: readonly AnalyticsEvent[]): SummedRow[] {
  const rows = new Map<string, SummedRow>();
  for (const event of events) {
    for (const cell of event.cells) {
      const key = [cell.kind, cell.scope, cell.item, event.day, event.account].join('\u0000');
      const row = rows.get(key);
      if (!row) rows.set(key, { ...cell, day: event.day, account: event.account });
      else for (const name of ['searches', 'hits', 'documents', 'resolutions', 'calls'] as const) row[name] += cell[name];
    }
  }
  return [...rows.values()];
}

function distinctDocuments(events: readonly AnalyticsEvent[]): DocumentMeta[] {
  const docs = new Map<string, DocumentMeta>();
  for (const event of events) for (const doc of event.documents) docs.set(`${doc.source}\u0000${doc.source_id}`, doc);
  return [...docs.values()];
}
