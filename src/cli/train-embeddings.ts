/**
 * `npm run train:embeddings [-- --corpus DIR --out DIR --seed N --dimension D --vocab N
 * --epochs N --max-minutes M …]` (`--help` lists every flag): trains the domain embedding
 * model from a corpus folder and writes it in the model2vec format (load it with
 * `EMBEDDER=static:<out>`). Prints progress, the training loss and the held-out pairs'
 * recall@1 / MRR.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { corpusDirOrExit, listOrExit, positiveNumberOrExit } from './cli-args.js';
import { PAIR_KINDS } from '../modules/legal-data/training/training-pairs.js';
import { TRAIN_DEFAULTS, trainDomainModel } from '../modules/legal-data/training/train-domain-model.js';
import { defaultModelDir } from '../engines/embedders/create-embedder.js';
import { progressLine } from '../modules/legal-data/training/train-in-background.js';
import { lockTrainingFolder } from '../modules/legal-data/training/training-lock.js';
import { exitWithParent } from '../util/exit-with-parent.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    out: { type: 'string' },
    seed: { type: 'string' },
    dimension: { type: 'string' },
    vocab: { type: 'string' },
    epochs: { type: 'string' },
    'max-minutes': { type: 'string' },
    'learning-rate': { type: 'string' },
    'batch-size': { type: 'string' },
    temperature: { type: 'string' },
    'citations-per-article': { type: 'string' },
    'citations-per-document-article': { type: 'string' },
    'citation-repeat': { type: 'string' },
    'skip-pairs': { type: 'string' },
    'skip-svd': { type: 'boolean' },
    'skip-contrastive': { type: 'boolean' },
    'random-batches': { type: 'boolean' },
    'progress-json': { type: 'boolean' },
    'parent-pid': { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  process.stdout.write(
    'usage: npm run train:embeddings [-- --corpus DIR --out DIR --seed N --dimension D --vocab N --epochs N --batch-size N --temperature T --citations-per-article N --citations-per-document-article N --citation-repeat N --skip-pairs KIND,… --learning-rate R --max-minutes M --random-batches --parent-pid PID (end when that process is no longer the parent)]\n' +
      `defaults: corpus CORPUS_DIR or ../shared/corpus, out DATA_DIR/models/domain-static, ${JSON.stringify(TRAIN_DEFAULTS)}\n`,
  );
  process.exit(0);
}
// Started by the server (train-in-background.ts): end with it, even inside a long synchronous step.
if (values['parent-pid']) exitWithParent(positiveNumberOrExit('parent-pid', values['parent-pid'], { integer: true })!);
const config = loadConfig();
const corpusDir = corpusDirOrExit(values.corpus, config.corpusDir);
const outDir = path.resolve(values.out ?? defaultModelDir(config.dataDir));
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const unlock = await lockTrainingFolder(outDir, log);
const summary = await trainDomainModel({
  corpusDir,
  outDir,
  seed: positiveNumberOrExit('seed', values.seed, { allowZero: true, integer: true }),
  dimension: positiveNumberOrExit('dimension', values.dimension, { integer: true }),
  vocabSize: positiveNumberOrExit('vocab', values.vocab, { integer: true }),
  epochs: positiveNumberOrExit('epochs', values.epochs, { integer: true }),
  maxMinutes: positiveNumberOrExit('max-minutes', values['max-minutes']),
  learningRate: positiveNumberOrExit('learning-rate', values['learning-rate']),
  batchSize: positiveNumberOrExit('batch-size', values['batch-size'], { integer: true }),
  temperature: positiveNumberOrExit('temperature', values.temperature),
  citationsPerArticle: positiveNumberOrExit('citations-per-article', values['citations-per-article'], { integer: true }),
  citationsPerDocumentArticle: positiveNumberOrExit('citations-per-document-article', values['citations-per-document-article'], { integer: true }),
  citationRepeat: positiveNumberOrExit('citation-repeat', values['citation-repeat'], { integer: true }),
  skipPairs: listOrExit('skip-pairs', values['skip-pairs'], PAIR_KINDS),
  skipSvd: values['skip-svd'],
  skipContrastive: values['skip-contrastive'],
  groupedBatches: values['random-batches'] ? false : undefined,
  log,
  // Machine-readable progress for the server that started this trainer (train-in-background.ts).
  onProgress: values['progress-json'] ? (p) => process.stdout.write(progressLine(p)) : undefined,
}).finally(unlock);
process.stdout.write(
  `trained ${summary.outDir}: ${summary.vocabSize} tokens x ${summary.dimension} dims from ${summary.documents} documents, ` +
    `${summary.pairs.train} pairs, final loss ${summary.finalLoss.toFixed(4)}, held-out recall@1 ` +
    `${summary.validation.before.recallAt1.toFixed(3)} -> ${summary.validation.after.recallAt1.toFixed(3)}, MRR ` +
    `${summary.validation.before.mrr.toFixed(3)} -> ${summary.validation.after.mrr.toFixed(3)} in ${summary.seconds.toFixed(0)} s\n`,
);
