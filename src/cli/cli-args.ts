/** Argument checks shared by the command-line tools: a readable message and exit 2, never a stack. */
import { existsSync } from 'node:fs';
import path from 'node:path';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** The corpus folder from `--corpus` or CORPUS_DIR; exits when there is none or it is not a corpus. */
export function corpusDirOrExit(flag: string | undefined, configured: string | undefined): string {
  const corpusDir = flag ? path.resolve(flag) : configured;
  if (!corpusDir) fail('No corpus folder: pass --corpus DIR or set CORPUS_DIR.');
  if (!existsSync(path.join(corpusDir, 'documents')) && !existsSync(path.join(corpusDir, 'sources.jsonl.gz'))) {
    fail(`${corpusDir} is not a corpus folder (no documents/ and no sources.jsonl.gz; see shared/corpus/FORMAT.md).`);
  }
  return corpusDir;
}

/** A numeric flag (undefined when absent); exits when it is not a positive number (or 0, when allowed), or not whole when it counts something. */
export function positiveNumberOrExit(name: string, value: string | undefined, options: { allowZero?: boolean; integer?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const ok = value.trim() !== '' && Number.isFinite(n) && (n > 0 || (options.allowZero === true && n === 0)) && (!options.integer || Number.isInteger(n));
  const kind = `${options.allowZero ? 'non-negative' : 'positive'} ${options.integer ? 'whole number' : 'number'}`;
  if (!ok) fail(`--${name} must be a ${kind} (got "${value}").`);
  return n;
}

/** A comma-separated list flag (undefined when absent); exits when an item is not one of `allowed`. */
export function listOrExit<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0) fail(`--${name} takes a comma-separated list of ${allowed.join(', ')} (got "${unknown.join(', ')}").`);
  return items as T[];
}

/** A comma-separated list of numbers between 0 and 1 (alphas); exits when an item is not one. */
export function unitNumbersOrExit(name: string, value: string): number[] {
  const numbers = value.split(',').map((item) => (item.trim() === '' ? NaN : Number(item)));
  if (numbers.some((n) => !(n >= 0 && n <= 1))) fail(`--${name} takes a comma-separated list of numbers between 0 and 1 (got "${value}").`);
  return numbers;
}
