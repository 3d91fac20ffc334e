/**
 * The child side of the server's startup ingest (src/modules/legal-data/ingest/ingest-in-child.ts):
 * opens the index, builds the embedder, runs `ingestCorpus` with the server's store over IPC,
 * reports progress and log lines, and exits so its memory goes back to the system.
 */
import { createSearchEngine } from '../engines/create-search-engine.js';
import { createEmbedder } from '../engines/embedders/create-embedder.js';
import { createLogger } from '../logger.js';
import type { ChildMessage, IngestJob, ParentMessage } from '../modules/legal-data/ingest/ingest-in-child.js';
import { citationCountsFile } from '../modules/legal-data/ingest/citation-counts.js';
import { ingestCorpus, type IngestStore } from '../modules/legal-data/ingest/ingest.service.js';
import { exitWithParent } from '../util/exit-with-parent.js';

const send = (message: ChildMessage) =>
  new Promise<void>((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
const abort = new AbortController();
const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextId = 0;
const call = (method: keyof IngestStore, args: unknown[]) =>
  new Promise<unknown>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    void send({ type: 'call', id, method, args });
  });
const store: IngestStore = {
  upsertSources: (sources) => call('upsertSources', [sources]) as ReturnType<IngestStore['upsertSources']>,
  getFile: (relativePath) => call('getFile', [relativePath]) as ReturnType<IngestStore['getFile']>,
  saveFile: (record) => call('saveFile', [record]) as ReturnType<IngestStore['saveFile']>,
  citationGraphState: () => call('citationGraphState', []) as ReturnType<IngestStore['citationGraphState']>,
  setCitationGraphState: (state) => call('setCitationGraphState', [state]) as ReturnType<IngestStore['setCitationGraphState']>,
  citationCheckpoints: () => call('citationCheckpoints', []) as ReturnType<IngestStore['citationCheckpoints']>,
  replaceCitationGraphs: (graphs) => call('replaceCitationGraphs', [graphs]) as ReturnType<IngestStore['replaceCitationGraphs']>,
  removeCitingDocuments: (ids) => call('removeCitingDocuments', [ids]) as ReturnType<IngestStore['removeCitingDocuments']>,
  citationGraphSize: () => call('citationGraphSize', []) as ReturnType<IngestStore['citationGraphSize']>,
};
const logger = createLogger('info', (line) => {
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; err?: { message?: string } };
    const level = entry.level === 'debug' || entry.level === 'warn' || entry.level === 'error' ? entry.level : 'info';
    void send({ type: 'log', level, message: `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}` });
  } catch {
    void send({ type: 'log', level: 'info', message: line });
  }
});

async function run(job: IngestJob): Promise<void> {
  const engine = createSearchEngine(job.engine, logger);
  await engine.open();
  try {
    const embedder = job.embedder ? await createEmbedder(job.embedder, job.dataDir) : null;
    const summary = await ingestCorpus(
      { engine, embedder, store, logger },
      {
        corpusDir: job.corpusDir,
        signal: abort.signal,
        onProgress: (state) => void send({ type: 'progress', state }),
        onIndexed: () => send({ type: 'indexed' }),
        citationCountsFile: citationCountsFile(job.dataDir),
        linkLegislation: job.linkLegislation,
      },
    );
    await engine.close();
    await send({ type: 'done', summary });
  } catch (error) {
    await engine.close().catch(() => undefined);
    await send({ type: 'failed', error: (error as Error).stack ?? String(error) });
  }
}

process.on('message', (raw) => {
  const message = raw as ParentMessage;
  if (message.type === 'start') {
    // the server may be gone already (its channel closed): disconnecting again would throw
    run(message.job).finally(() => {
      if (process.connected) process.disconnect();
    });
  } else if (message.type === 'reply') {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.result);
  } else if (message.type === 'abort') {
    abort.abort();
  }
});
/** Milliseconds the ingest gets to stop after its current batch once the server is gone, before it is killed. */
const ORPHAN_GRACE_MS = 10_000;

/** The server went away: stop after the current batch (the next start resumes); its store calls will never be answered. */
function serverGone(): void {
  abort.abort();
  for (const waiter of pending.values()) waiter.reject(new Error('the server went away'));
  pending.clear();
}
process.on('disconnect', serverGone);
// A SIGKILLed server closes the IPC channel too, but a batch in synchronous work hears it late or
// never: the watchdog thread kills this process ORPHAN_GRACE_MS after the server is gone.
exitWithParent(process.ppid, { graceMs: ORPHAN_GRACE_MS, onParentGone: serverGone });
