/**
 * Bulk writes of the Elasticsearch engine through the client's bulk helper: bounded batches by
 * bytes, bounded concurrency (back-pressure); items answered 429 are retried by the helper, and
 * only those; any other failed item is collected and reported as one error after the batch.
 */
import type { Client } from '@elastic/elasticsearch';

/** One bulk item: a full source, a partial update, or a delete. */
export type BulkOp =
  | { kind: 'index'; index: string; id: string; doc: Record<string, unknown> }
  | { kind: 'update'; index: string; id: string; doc: Record<string, unknown> }
  | { kind: 'delete'; index: string; id: string };

/** The bulk helper's settings: bytes per request, requests in flight, retries of 429 items and the wait between them (ms). */
export interface BulkSettings {
  flushBytes: number;
  concurrency: number;
  retries: number;
  wait: number;
}

/** A bulk item Elasticsearch refused (after the helper's retries of 429s). */
export class BulkWriteError extends Error {
  constructor(readonly failures: { id: string; status: number; error: unknown }[]) {
    super(
      `Elasticsearch refused ${failures.length} bulk item(s); first: ${failures[0]?.id} (${failures[0]?.status}: ${JSON.stringify(failures[0]?.error).slice(0, 300)})`,
    );
    this.name = 'BulkWriteError';
  }
}

/**
 * Writes `ops` through the bulk helper; throws BulkWriteError listing the items that failed once
 * the batch is done (a delete of an item that is already gone is not a failure).
 */
export async function bulkWrite(client: Client, ops: BulkOp[], settings: BulkSettings): Promise<void> {
  if (ops.length === 0) return;
  const failures: { id: string; status: number; error: unknown }[] = [];
  await client.helpers.bulk<BulkOp>({
    datasource: ops,
    flushBytes: settings.flushBytes,
    concurrency: settings.concurrency,
    retries: settings.retries,
    wait: settings.wait,
    refreshOnCompletion: false,
    onDocument(op) {
      if (op.kind === 'delete') return { delete: { _index: op.index, _id: op.id } };
      if (op.kind === 'update') return [{ update: { _index: op.index, _id: op.id } }, { doc: op.doc }];
      return [{ index: { _index: op.index, _id: op.id } }, op.doc];
    },
    onDrop(drop) {
      if (drop.document.kind === 'delete' && drop.status === 404) return;
      failures.push({ id: drop.document.id, status: drop.status, error: drop.error });
    },
  });
  if (failures.length > 0) throw new BulkWriteError(failures);
}
