/**
 * `tsx src/cli/embed-index.ts --index DIR --model DIR [--progress-json]`: embeds every chunk of
 * the index in DIR with the static (model2vec-format) model in --model, as a new vector
 * generation (with its HNSW index when large), then optimizes. The server runs it in a child
 * process after training its domain model (train-in-background.ts), so that what the embedding
 * holds (chunk texts, vector buffers, the index build's native memory) goes back when it exits.
 * Another model's vectors are replaced; vectors of this model already in place are kept.
 */
import { parseArgs } from 'node:util';
import { LanceDbEngine } from '../engines/embedded/lancedb-engine.js';
import { loadStaticEmbedder } from '../engines/embedders/static-embedder.js';
import { progressLine } from '../engines/training/train-in-background.js';
import { createLogger } from '../logger.js';
import { reembedIfModelChanged } from '../modules/legal-data/ingest/ingest.service.js';

const { values } = parseArgs({
  options: { index: { type: 'string' }, model: { type: 'string' }, 'progress-json': { type: 'boolean' }, help: { type: 'boolean' } },
});
if (values.help || !values.index || !values.model) {
  process.stdout.write('usage: tsx src/cli/embed-index.ts --index DATA_DIR/index --model DIR [--progress-json]\n');
  process.exit(values.help ? 0 : 2);
}
// Plain message lines on stderr (the server forwards them to its own log).
const logger = createLogger('info', (line) => {
  let message = line;
  try {
    message = (JSON.parse(line) as { msg?: string }).msg ?? line;
  } catch {
    // not JSON: as is
  }
  process.stderr.write(`${message}\n`);
});
const engine = new LanceDbEngine(values.index);
await engine.open();
try {
  const embedder = await loadStaticEmbedder(values.model);
  const progress = values['progress-json'] ? (fraction: number) => process.stdout.write(progressLine({ step: 'embedding the index', fraction })) : () => {};
  let last = 0;
  const count = await reembedIfModelChanged(engine, embedder, logger, (state) => {
    if (!state.documents_total || Date.now() - last < 1000) return;
    last = Date.now();
    progress(Math.min(1, state.documents_done / state.documents_total));
  });
  progress(1);
  if (count > 0) await engine.optimize();
  logger.info(`embed-index: ${count.toLocaleString('en')} chunks embedded with ${embedder.id}`);
} finally {
  await engine.close();
}
