/**
 * IndexRepair's bookkeeping: one rebuild for many storage errors, and after a failed rebuild the
 * next storage error tries again (before, the reason stayed set and nothing ever retried: not
 * ready until a restart). The state is the service's readiness in miniature; the rebuilds are
 * plain promises whose outcome the test decides.
 */
import { createLogger } from '../../logger.js';
import { IndexRepair, type IndexRebuildState } from './index-repair.js';

function readiness(): IndexRebuildState & { reason: string | null } {
  return {
    reason: null,
    indexRebuildReason() {
      return this.reason;
    },
    indexDamaged(reason: string) {
      this.reason = reason;
    },
    setIndexRebuild(reason: null) {
      this.reason = reason;
    },
  };
}

describe('IndexRepair', () => {
  const logger = createLogger('silent');

  it('starts one rebuild for many storage errors, and answers each with 503 and Retry-After', async () => {
    const state = readiness();
    let rebuilds = 0;
    let finish!: () => void;
    const repair = new IndexRepair({ state, canRebuild: true, where: '/tmp/index', logger, rebuild: () => (rebuilds++, new Promise<void>((resolve) => (finish = resolve))) });
    const answers = [repair.storageError(new Error('cut')), repair.storageError(new Error('cut'))];
    expect(answers.map((a) => [a.code, a.details?.retryAfterSeconds])).toEqual([['unavailable', 30], ['unavailable', 30]]);
    expect(rebuilds).toBe(1);
    expect(state.reason).toMatch(/storage error \(cut\)/);
    finish();
  });

  it('tries again at the next storage error after a rebuild failed', async () => {
    const state = readiness();
    const outcomes = [Promise.reject(new Error('disk full')), Promise.resolve()];
    let rebuilds = 0;
    const repair = new IndexRepair({ state, canRebuild: true, where: '/tmp/index', logger, rebuild: () => outcomes[rebuilds++]! });
    repair.storageError(new Error('cut'));
    while (repair.rebuilding()) await new Promise((resolve) => setImmediate(resolve));
    expect(state.reason).toBeNull();
    repair.storageError(new Error('cut again'));
    expect(rebuilds).toBe(2);
  });
});
