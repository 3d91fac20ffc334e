/**
 * The server's startup ingest in a child process. Indexing the corpus (reading and analysing
 * every document, the writes, the full-text and vector index builds) takes gigabytes that the
 * server's own process kept after it ended (≈ 4.7 GB RSS after a first start, against ≈ 1.7 GB
 * after a restart); in a child they go back to the system when it exits. The child opens the
 * same index directory and writes it; the server's engine reads it meanwhile (LanceDB
 * versions: searches see the new rows within its read-consistency interval) and is refreshed
 * when the child ends. The relational store stays in the server (embedded PGlite admits one
 * process): the child asks for it over the IPC channel (`IngestStore`, three calls).
 *
 * Protocol (structured-clone messages): server -> child `start` {job}, `reply` {id, result |
 * error}, `abort`; child -> server `call` {id, method, args}, `progress` {state}, `indexed`,
 * `log` {level, message}, `done` {summary} | `failed` {error}.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { EmbedderSetting } from '../../../config.js';
import type { Logger } from '../../../logger.js';
import type { EngineSettings } from '../../../engines/create-search-engine.js';
import type { IngestState, IngestStore, IngestSummary } from './ingest.service.js';

/** What the child indexes: the engine to open (as the server's), the corpus, and the embedder to build (null: keyword only). */
export interface IngestJob {
  engine: EngineSettings;
  dataDir: string;
  corpusDir: string;
  embedder: EmbedderSetting | null;
  /** CITATOR_LINK_LEGISLATION: the citation graph links legislation's articles too. */
  linkLegislation: boolean;
}

export type ChildMessage =
  | { type: 'call'; id: number; method: keyof IngestStore; args: unknown[] }
  | { type: 'progress'; state: IngestState }
  | { type: 'indexed' }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'done'; summary: IngestSummary }
  | { type: 'failed'; error: string };

export type ParentMessage = { type: 'start'; job: IngestJob } | { type: 'reply'; id: number; result?: unknown; error?: string } | { type: 'abort' };

export function ingestInChild(
  job: IngestJob,
  deps: {
    store: IngestStore;
    logger: Logger;
    signal?: AbortSignal;
    onProgress?: (state: IngestState) => void;
    onIndexed?: () => Promise<void> | void;
  },
): Promise<IngestSummary> {
  const script = fileURLToPath(new URL('../../../cli/ingest-child.ts', import.meta.url));
  const root = path.resolve(path.dirname(script), '..', '..');
  const child = fork(script, [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const send = (message: ParentMessage) => {
    if (child.connected) child.send(message);
  };
  const abort = () => send({ type: 'abort' });
  deps.signal?.addEventListener('abort', abort, { once: true });
  return new Promise<IngestSummary>((resolve, reject) => {
    let settled = false;
    // The readers' refreshes after each optimize, in order; the ingest ends after the last one.
    let indexed: Promise<void> = Promise.resolve();
    const finish = (error: Error | null, summary?: IngestSummary) => {
      if (settled) return;
      settled = true;
      deps.signal?.removeEventListener('abort', abort);
      if (error) reject(error);
      else resolve(summary!);
    };
    child.on('message', (raw) => {
      const message = raw as ChildMessage;
      switch (message.type) {
        case 'call': {
          const method = deps.store[message.method] as (...args: unknown[]) => Promise<unknown>;
          method.apply(deps.store, message.args).then(
            (result) => send({ type: 'reply', id: message.id, result }),
            (error: Error) => send({ type: 'reply', id: message.id, error: error.message }),
          );
          break;
        }
        case 'progress':
          deps.onProgress?.(message.state);
          break;
        case 'indexed':
          indexed = indexed.then(() => deps.onIndexed?.()).catch(() => undefined);
          break;
        case 'log':
          deps.logger[message.level](message.message);
          break;
        case 'done':
          void indexed.then(() => finish(null, message.summary));
          break;
        case 'failed':
          finish(new Error(`ingest: ${message.error}`));
          break;
      }
    });
    child.on('error', (error) => finish(error));
    child.on('exit', (code, signal) => void indexed.then(() => finish(new Error(`ingest process ${signal ? `stopped by ${signal}` : `exited with code ${code}`} before it finished`))));
    send({ type: 'start', job });
  });
}
