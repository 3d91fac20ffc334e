/**
 * Runs `train:embeddings` in a child process (the trainer is CPU-bound for minutes: in the
 * server's own thread it would stall every request; and its memory goes back to the system
 * when the child exits), forwarding its log lines and progress.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROGRESS = 'PROGRESS ';

export interface BackgroundTraining {
  done: Promise<void>;
  stop(): void;
}

/** Trains the domain model from `corpusDir` into `outDir`; rejects when the trainer fails. */
export function trainInBackground(options: {
  corpusDir: string;
  outDir: string;
  log: (line: string) => void;
  onProgress: (progress: { step: string; fraction: number }) => void;
  extraArgs?: string[];
}): BackgroundTraining {
  // --parent-pid: the trainer ends with this process, even when it is killed (src/util/exit-with-parent.ts).
  const args = ['--corpus', options.corpusDir, '--out', options.outDir, '--progress-json', '--parent-pid', String(process.pid), ...(options.extraArgs ?? [])];
  return runCliInBackground('train-embeddings.ts', args, {
    what: 'training',
    log: options.log,
    onProgress: options.onProgress,
  });
}

/** Runs `src/cli/<script>` in a child Node process, forwarding its log lines and `PROGRESS` lines. */
function runCliInBackground(
  script: string,
  args: string[],
  options: { what: string; log: (line: string) => void; onProgress: (progress: { step: string; fraction: number }) => void },
): BackgroundTraining {
  const cli = fileURLToPath(new URL(`../../../cli/${script}`, import.meta.url));
  const root = path.resolve(path.dirname(cli), '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const lines = (stream: NodeJS.ReadableStream, onLine: (line: string) => void) => {
    let buffer = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
      }
    });
  };
  const tail: string[] = [];
  lines(child.stdout!, (line) => {
    if (line.startsWith(PROGRESS)) {
      try {
        options.onProgress(JSON.parse(line.slice(PROGRESS.length)) as { step: string; fraction: number });
      } catch {
        // a malformed progress line is only a missed update
      }
    } else if (line.trim()) options.log(line);
  });
  lines(child.stderr!, (line) => {
    if (!line.trim()) return;
    tail.push(line);
    if (tail.length > 20) tail.shift();
    options.log(line.replace(/^\S+Z /, ''));
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${options.what} ${signal ? `stopped by ${signal}` : `exited with code ${code}`}: ${tail.slice(-3).join(' | ')}`));
    });
  });
  return { done, stop: () => child.kill('SIGTERM') };
}

/** The progress line format the CLI prints with --progress-json. */
export function progressLine(progress: { step: string; fraction: number }): string {
  return `${PROGRESS}${JSON.stringify(progress)}\n`;
}
