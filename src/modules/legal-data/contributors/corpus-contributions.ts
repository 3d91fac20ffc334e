/** Reads `contributions.jsonl.gz` of the corpus folder (format: ../shared/corpus/FORMAT.md). */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { Contribution, ContributionKind } from './contribution.js';

const KINDS = new Set<ContributionKind>(['issue', 'pull_request', 'commit']);

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** One line as a contribution, or null when it is not one (an unknown kind, malformed JSON). */
function parseLine(line: string): Contribution | null {
  let row: Record<string, unknown>;
  try {
    row = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!row || typeof row !== 'object' || !KINDS.has(row.kind as ContributionKind)) return null;
  return {
    kind: row.kind as ContributionKind,
    id: String(row.id ?? ''),
    login: text(row.login),
    author: text(row.author),
    date: text(row.date),
    sources: Array.isArray(row.sources) ? [...new Set(row.sources.filter((s): s is string => typeof s === 'string'))] : [],
    country: text(row.country),
    bot: row.bot === true,
  };
}

/** Every contribution of the file; an absent file is no contributions. */
export async function readCorpusContributions(file: string): Promise<{ contributions: Contribution[]; skippedLines: number }> {
  let raw: Buffer;
  try {
    raw = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { contributions: [], skippedLines: 0 };
    throw error;
  }
  const contributions: Contribution[] = [];
  let skippedLines = 0;
  for (const line of gunzipSync(raw).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = parseLine(line);
    if (c) contributions.push(c);
    else skippedLines += 1;
  }
  return { contributions, skippedLines };
}
