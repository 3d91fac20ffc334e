/**
 * Which LanceDB errors count as a damaged index (503 and a rebuild) and which as a bug (500):
 * real tables on disk, damaged the ways a running service's folder can be, and a query that is
 * wrong on an intact table.
 */
import { mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { makeDocument } from '../../../test/fixtures/legal-document.js';
import { LanceDbEngine } from './lancedb-engine.js';
import { isLanceStorageError } from './lancedb-storage-errors.js';

/** An optimized index of `count` documents, two passages each. */
async function indexOf(count: number): Promise<{ dir: string; engine: LanceDbEngine }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lance-storage-errors-'));
  const engine = new LanceDbEngine(dir);
  await engine.open();
  const inputs = Array.from({ length: count }, (_, i) => {
    const document = makeDocument({ source: 'DE/BGH', source_id: `x${i}`, namespace: 'case_law', title: `Urteil ${i}`, text: `Die Revision ${i} wird zurückgewiesen. ${'Gründe des Urteils '.repeat(30)}`, language: 'de' });
    return { document, contentHash: 'h', chunks: [{ content: document.text }, { content: `${document.text} Kosten` }] };
  });
  await engine.upsertDocuments(inputs);
  await engine.optimize();
  return { dir, engine };
}

async function largestDataFile(dir: string, table: string): Promise<{ file: string; size: number }> {
  const data = path.join(dir, `${table}.lance`, 'data');
  const files = await Promise.all((await readdir(data)).map(async (name) => ({ file: path.join(data, name), size: (await stat(path.join(data, name))).size })));
  return files.sort((a, b) => b.size - a.size)[0];
}

const failureOf = (run: () => Promise<unknown>) => run().then(() => null, (error: unknown) => error);

describe('isLanceStorageError', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('is true for the reads of a running engine whose data files were deleted or cut short', async () => {
    const { dir, engine } = await indexOf(1500);
    dirs.push(dir);
    const chunks = await largestDataFile(dir, 'chunks');
    await rm(chunks.file);
    const documents = await largestDataFile(dir, 'documents');
    await truncate(documents.file, Math.floor(documents.size / 2));

    const deleted = await failureOf(() => engine.keywordSearch('Revision', { namespace: 'case_law' }, 5));
    const cut = await failureOf(() => engine.getDocuments(['DE/BGH/x1', 'DE/BGH/x1400']));
    await engine.close();
    expect(deleted).not.toBeNull();
    expect(cut).not.toBeNull();
    expect(isLanceStorageError(deleted)).toBe(true);
    expect(isLanceStorageError(cut)).toBe(true);
    expect(engine.isStorageError(cut)).toBe(true);
  });

  it('is false for a wrong query on an intact table, and for errors that are not LanceDB\'s', async () => {
    const { dir, engine } = await indexOf(10);
    dirs.push(dir);
    await engine.close();
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    const wrongColumn = await failureOf(() => table.query().where('no_such_column = 1').toArray());
    const wrongSql = await failureOf(() => table.query().where('doc_id = = 1').toArray());
    table.close();
    db.close();
    expect(wrongColumn).not.toBeNull();
    expect(wrongSql).not.toBeNull();
    expect(isLanceStorageError(wrongColumn)).toBe(false);
    expect(isLanceStorageError(wrongSql)).toBe(false);
    expect(isLanceStorageError(new TypeError("Cannot read properties of undefined (reading 'docId')"))).toBe(false);
    expect(isLanceStorageError(null)).toBe(false);
  });
});
