/**
 * `npm run backup` and `npm run restore` (issue #33 item 12), as an operator runs them: real
 * child processes on a DATA_DIR the service ingested. The backup refuses to run beside the
 * running service (its copy would not be consistent), is taken once the service stopped, and
 * restored into a new DATA_DIR the service starts on without re-indexing anything and answers
 * the same: the same search results, the same documents, the same catalogue from the database.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { writeCorpusSlice } from './fixtures/corpus-slice.js';
import { answersOf } from './helpers/data-dir-damage.js';
import { copyPgliteTemplate } from './helpers/pglite-template.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `src/cli/<script>.ts` as `npm run <script>` does, with only the environment given; never throws. */
async function runCli(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(`${ROOT}node_modules/.bin/node`, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('npm run backup / npm run restore', () => {
  let root: string;
  let platform: Platform | null = null;
  afterAll(async () => {
    await platform?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a backup restored into a new DATA_DIR answers the same', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'backup-restore-'));
    const corpus = await writeCorpusSlice(
      [
        { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 150 },
        { file: 'case_law/DE-BGH.jsonl.gz', lines: 10 },
      ],
      { dir: path.join(root, 'corpus') },
    );
    const env = (dataDir: string) => ({ DATA_DIR: dataDir, CORPUS_DIR: corpus.dir, PORT: '0', EMBEDDER: 'none', ALLOW_ANONYMOUS: 'true', RATE_LIMITS: 'off', LOG_LEVEL: 'info' });
    const original = path.join(root, 'data');
    const backup = path.join(root, 'backup');
    const restored = path.join(root, 'restored');
    await copyPgliteTemplate(original); // the migrated template; `restored` stays empty, as a restore needs

    platform = await startPlatform(loadConfig(env(original)), createLogger('silent'));
    await platform.ingestDone;
    const before = await answersOf(platform.url!);
    const countries = await (await fetch(`${platform.url}/v1/discover/countries`)).json();
    const documents = await platform.engine.countDocuments();
    expect(documents).toBeGreaterThan(100);
    expect(Object.values(before.searches).every((s) => s.ids.length > 0)).toBe(true);

    // Beside the running service: refused, nothing written.
    const refused = await runCli('backup', ['--out', backup], env(original));
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/is in use by process/);
    expect(existsSync(backup) ? await readdir(backup) : []).toEqual([]);

    await platform.stop();
    platform = null;
    const taken = await runCli('backup', ['--out', backup], env(original));
    expect(taken).toEqual({ code: 0, output: expect.stringMatching(/embedded database dumped/) });
    expect((await readdir(backup)).sort()).toEqual(expect.arrayContaining(['backup.json', 'index', 'pglite.tar.gz']));

    // A restore never overwrites a data folder.
    const overwrite = await runCli('restore', ['--from', backup], env(original));
    expect(overwrite.code).toBe(1);
    expect(overwrite.output).toMatch(/is not empty/);

    const restore = await runCli('restore', ['--from', backup], env(restored));
    expect(restore.code).toBe(0);

    const log: string[] = [];
    platform = await startPlatform(loadConfig(env(restored)), createLogger('info', (line) => log.push(line)));
    const summary = await platform.ingestDone;
    expect(summary?.documents.indexed).toBe(0); // nothing re-indexed: the database's checkpoints came back with the index
    expect(log.filter((line) => /damaged/.test(line))).toEqual([]);
    expect((await fetch(`${platform.url}/ready`)).status).toBe(200);
    expect(await platform.engine.countDocuments()).toBe(documents);
    const after = await answersOf(platform.url!);
    expect(after.searches).toEqual(before.searches);
    expect(after.documents).toEqual(before.documents);
    expect(await (await fetch(`${platform.url}/v1/discover/countries`)).json()).toEqual(countries);
  }, 600_000);
});
