/**
 * Reads a corpus folder in the format of ../shared/corpus/FORMAT.md: the sources catalogue
 * and `documents/<namespace>/*.jsonl.gz`. Bad lines are reported with file and line number,
 * never thrown: one broken record must not stop an ingest.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { catalogSourceSchema, type CatalogSource } from '../catalog.schema.js';
import { documentId, NAMESPACES, type LegalDocument } from '../../../domain/legal-document.js';

export interface CorpusFile {
  /** Path relative to the corpus folder, e.g. `documents/legislation/DE-GesetzeImInternet.jsonl.gz`. */
  relativePath: string;
  absolutePath: string;
  size: number;
}

export type CorpusLine<T> =
  | { line: number; ok: true; value: T; raw: string }
  | { line: number; ok: false; error: string };

const optionalText = z.string().nullish().transform((v) => (v === undefined || v === '' ? null : v));

const documentLineSchema = z.object({
  source: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be <country>/<source_name>'),
  source_id: z.string().min(1),
  namespace: z.enum(NAMESPACES),
  country: z.string().min(1),
  title: z.string(),
  text: z.string(),
  language: optionalText,
  date: optionalText,
  url: optionalText,
  court: optionalText,
  court_tier: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
  jurisdiction: optionalText,
  chamber: optionalText,
  ecli: optionalText,
  case_number: optionalText,
  decision_type: optionalText,
  decision_number: optionalText,
  authority: optionalText,
  document_type: optionalText,
  status: optionalText,
  identifier: optionalText,
  eli_uri: optionalText,
  effective_date: optionalText,
  expiry_date: optionalText,
  granularity: optionalText,
  unit_type: optionalText,
  unit_number: optionalText,
  canonical_path: optionalText,
  parent_source_id: optionalText,
  summary: optionalText,
  subdivision: optionalText,
  short_names: z.array(z.string()).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

export type { CatalogSource } from '../catalog.schema.js';

/** Turns one parsed JSON record into a LegalDocument, or explains why it is not one. */
export function parseDocumentRecord(record: unknown): { ok: true; value: LegalDocument } | { ok: false; error: string } {
  const parsed = documentLineSchema.safeParse(record);
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ') };
  }
  const d = parsed.data;
  return {
    ok: true,
    value: {
      ...d,
      id: documentId(d.source, d.source_id),
      court_tier: d.court_tier ?? null,
      short_names: d.short_names ?? [],
      extra: d.extra ?? {},
    },
  };
}

/** Streams the lines of a gzip JSON-lines file, parsed with `parse`, numbered from 1. */
export async function* readJsonLines<T>(
  file: string,
  parse: (record: unknown) => { ok: true; value: T } | { ok: false; error: string },
): AsyncGenerator<CorpusLine<T>> {
  const input = createReadStream(file).pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    if (raw.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (error) {
      yield { line, ok: false, error: `invalid JSON (${(error as Error).message})` };
      continue;
    }
    const result = parse(record);
    yield result.ok ? { line, ok: true, value: result.value, raw } : { line, ok: false, error: result.error };
  }
}

/** Reads the sources catalogue; a corpus without one has an empty catalogue. */
export async function readSourcesCatalogue(corpusDir: string): Promise<{ sources: CatalogSource[]; errors: string[] }> {
  const file = path.join(corpusDir, 'sources.jsonl.gz');
  const sources: CatalogSource[] = [];
  const errors: string[] = [];
  const exists = await stat(file).then(() => true, () => false);
  if (!exists) return { sources, errors };
  const parse = (record: unknown) => {
    const r = catalogSourceSchema.safeParse(record);
    return r.success
      ? ({ ok: true, value: r.data } as const)
      : ({ ok: false, error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') } as const);
  };
  for await (const entry of readJsonLines(file, parse)) {
    if (entry.ok) sources.push(entry.value);
    else errors.push(`sources.jsonl.gz:${entry.line}: ${entry.error}`);
  }
  return { sources, errors };
}

/** Lists the document files of a corpus, sorted for a stable ingest order. */
export async function listDocumentFiles(corpusDir: string): Promise<CorpusFile[]> {
  const root = path.join(corpusDir, 'documents');
  const files: CorpusFile[] = [];
  for (const namespace of NAMESPACES) {
    const dir = path.join(root, namespace);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.jsonl.gz')).sort()) {
      const absolutePath = path.join(dir, name);
      files.push({ relativePath: path.posix.join('documents', namespace, name), absolutePath, size: (await stat(absolutePath)).size });
    }
  }
  return files;
}

/** Counts the non-empty lines of a gzip file without parsing them (for progress totals). */
export async function countLines(file: string): Promise<number> {
  let count = 0;
  let last = 10;
  for await (const chunk of createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count += 1;
    last = chunk[chunk.length - 1] ?? last;
  }
  return last === 10 ? count : count + 1;
}
