/**
 * Reads every file of the embedded index once, so that damage shows at start rather than as a
 * 500 on some later search: every data file of each table (one narrow column scanned to the
 * end: a file cut short has lost its footer and fails to open), and every index the tables list
 * (a query that has to load it: a full-text query, an equality on a scalar index's column, a
 * vector search). Opening the tables already read the newest manifest of each.
 *
 * The cost is one pass over the id columns (the start-up's catalogue scan already reads every
 * document's metadata) and one small query per index.
 */
import type * as lancedb from '@lancedb/lancedb';
import { FTS_COLUMN } from './lancedb-tables.js';
import { sqlString } from './lancedb-filters.js';

/** A table of the index to check, with the narrow column that is scanned through every data file. */
export interface TableToCheck {
  name: string;
  table: lancedb.Table;
  idColumn: string;
}

/** Throws, naming the table, when a file of one of the tables cannot be read. */
export async function readEveryIndexFile(tables: TableToCheck[]): Promise<void> {
  for (const { name, table, idColumn } of tables) {
    try {
      await checkTable(table, idColumn);
    } catch (error) {
      throw new Error(`table ${name}: ${(error as Error).message}`, { cause: error });
    }
  }
}

async function checkTable(table: lancedb.Table, idColumn: string): Promise<void> {
  const expected = await table.countRows();
  let scanned = 0;
  let first: Record<string, unknown> | null = null;
  for await (const batch of table.query().select([idColumn])) {
    scanned += batch.numRows;
    first ??= (batch.toArray()[0] as Record<string, unknown> | undefined) ?? null;
  }
  if (scanned !== expected) throw new Error(`${scanned} rows readable of the ${expected} its manifest lists`);
  if (!first) return;
  // One whole row: the other columns' pages of the first file.
  const [row] = (await table.query().where(`${idColumn} = ${sqlString(String(first[idColumn]))}`).limit(1).toArray()) as Record<string, unknown>[];
  if (!row) throw new Error(`row ${String(first[idColumn])} cannot be read back`);
  for (const index of await table.listIndices()) await queryThroughIndex(table, index, row);
}

/** A query that has to load `index` (its files deleted or cut: it throws). */
async function queryThroughIndex(table: lancedb.Table, index: lancedb.IndexConfig, row: Record<string, unknown>): Promise<void> {
  const column = index.columns[0];
  const value = row[column];
  if (column === FTS_COLUMN) {
    const word = String(value ?? '').split(/\s+/).find(Boolean) ?? 'a';
    await table.query().fullTextSearch(word).limit(1).toArray();
  } else if (column === 'vector') {
    await table.vectorSearch(Array.from(value as Iterable<number>)).limit(1).toArray();
  } else if (typeof value === 'string') {
    await table.query().where(`${column} = ${sqlString(value)}`).limit(1).toArray();
  }
}
