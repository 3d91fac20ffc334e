/**
 * For the damaged-data-folder and backup tests: a service's answers to compare before and
 * after (searches, document lookups), copies of an ingested DATA_DIR, and the damage itself
 * (files of the embedded index deleted or cut in half).
 */
import { cp, mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Queries whose answers are compared (the corpus slice's French codes and German decisions; the default namespace is case_law). */
export const QUERIES = [
  { q: "contrat d'édition", namespace: 'legislation' },
  { q: 'rémunération des auteurs', namespace: 'legislation' },
  { q: 'gestion collective', namespace: 'legislation' },
  { q: 'Revision Urteil Landgericht', namespace: 'case_law' },
];

/** What a service answers: hit ids of each query, and some documents in full. */
export interface Answers {
  searches: Record<string, { total: number; ids: string[] }>;
  documents: Record<string, unknown>;
}

/** The answers of the service at `url` for QUERIES, and the full documents of the first hits. */
export async function answersOf(url: string): Promise<Answers & { searchStatuses: number[] }> {
  const searches: Answers['searches'] = {};
  const documents: Answers['documents'] = {};
  const searchStatuses: number[] = [];
  for (const { q, namespace } of QUERIES) {
    const res = await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q, namespace, top_k: 10, alpha: 0 }) });
    searchStatuses.push(res.status);
    if (res.status !== 200) continue;
    const body = (await res.json()) as { total_hits: number; hits: { source: string; source_id: string }[] };
    // Sorted: equal scores may come back in another order from a rebuilt index.
    searches[q] = { total: body.total_hits, ids: body.hits.map((h) => `${h.source}/${h.source_id}`).sort() };
    for (const hit of body.hits.slice(0, 2)) {
      const doc = await fetch(`${url}/v1/documents/${hit.source}/${encodeURIComponent(hit.source_id).replace(/%2F/g, '/')}`);
      documents[`${hit.source}/${hit.source_id}`] = doc.status === 200 ? await doc.json() : doc.status;
    }
  }
  return { searches, documents, searchStatuses };
}

/** A copy of `from` in a new temp folder (without the lock file of a stopped service). */
export async function copyDataDir(from: string, prefix: string): Promise<string> {
  const to = await mkdtemp(path.join(os.tmpdir(), prefix));
  await cp(from, to, { recursive: true });
  await rm(path.join(to, '.lock'), { force: true });
  return to;
}

/** The files directly in `dir`, largest first. */
async function filesBySize(dir: string): Promise<{ file: string; size: number; mtimeMs: number }[]> {
  const out: { file: string; size: number; mtimeMs: number }[] = [];
  for (const name of await readdir(dir)) {
    const s = await stat(path.join(dir, name));
    if (s.isFile()) out.push({ file: path.join(dir, name), size: s.size, mtimeMs: s.mtimeMs });
  }
  return out.sort((a, b) => b.size - a.size);
}

/** Cuts the largest data file of a table of the index (`chunks`, `documents`) in half; returns it. */
export async function cutLargestDataFile(dataDir: string, table: string): Promise<string> {
  const [largest] = await filesBySize(path.join(dataDir, 'index', `${table}.lance`, 'data'));
  await truncate(largest.file, Math.floor(largest.size / 2));
  return largest.file;
}

/** Deletes the newest version manifest of a table of the index; returns it. */
export async function deleteNewestManifest(dataDir: string, table: string): Promise<string> {
  const manifests = (await filesBySize(path.join(dataDir, 'index', `${table}.lance`, '_versions'))).filter((f) => f.file.endsWith('.manifest'));
  const [newest] = manifests.sort((a, b) => (manifestVersion(b.file) > manifestVersion(a.file) ? 1 : -1));
  await rm(newest.file);
  return newest.file;
}

/** The version a Lance manifest's name stands for: `<n>.manifest`, or (V2 naming) `<u64::MAX - n>.manifest`. */
function manifestVersion(file: string): bigint {
  const n = BigInt(path.basename(file, '.manifest'));
  return n > 2n ** 63n ? 2n ** 64n - 1n - n : n;
}
