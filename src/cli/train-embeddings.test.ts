import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = (...args: string[]) =>
  promisify(execFile)(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'src/cli/train-embeddings.ts', ...args], { cwd: ROOT }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe('npm run train:embeddings (the command line)', () => {
  it('names its hyper-parameters and their defaults in --help', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    for (const flag of ['--batch-size N', '--temperature T', '--learning-rate R', '--epochs N', '--citations-per-article N', '--skip-pairs KIND']) expect(stdout).toContain(flag);
    expect(stdout).toContain('"batchSize":512');
  });

  it('refuses a batch size, epoch count or temperature that is not a positive (whole) number before reading the corpus', async () => {
    const zero = await run('--batch-size', '0');
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain('--batch-size must be a positive whole number (got "0")');
    const fraction = await run('--epochs', '2.5');
    expect(fraction.code).not.toBe(0);
    expect(fraction.stderr).toContain('--epochs must be a positive whole number (got "2.5")');
    const text = await run('--temperature', 'cold');
    expect(text.code).not.toBe(0);
    expect(text.stderr).toContain('--temperature must be a positive number (got "cold")');
    const kinds = await run('--skip-pairs', 'sibling,neighbour');
    expect(kinds.code).not.toBe(0);
    expect(kinds.stderr).toContain('--skip-pairs takes a comma-separated list of header, sibling, cloze, translation, citation (got "neighbour")');
  });
});
