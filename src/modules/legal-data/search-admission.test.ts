/**
 * The search admission (search-admission.ts): at most `size` requests search at once, the others
 * in arrival order; a request's several searches share its one place; an abandoned request
 * leaves the queue; a failing search gives its place back. Real promises and abort signals; the
 * request context is the part of it the admission reads (its loaders and its signal).
 */
import type { RequestContext } from '../../context.js';
import { SearchAdmission } from './search-admission.js';

function context(signal: AbortSignal = new AbortController().signal): RequestContext {
  const loaders = new Map<symbol, unknown>();
  const loader = <T>(key: symbol, make: () => T): T => {
    if (!loaders.has(key)) loaders.set(key, make());
    return loaders.get(key) as T;
  };
  return { loader, signal } as unknown as RequestContext;
}

/** A search that ends when the test says so, and records when it started. */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name);
    fail = reject;
  });
  return {
    search: () => {
      log.push(name);
      return done;
    },
    finish: () => finish(),
    fail: (e: Error) => fail(e),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SearchAdmission', () => {
  it('lets `size` requests search at once and starts the others in arrival order', async () => {
    const admission = new SearchAdmission(2);
    const log: string[] = [];
    const searches = ['a', 'b', 'c', 'd'].map((name) => controlled(log, name));
    const answers = searches.map((s) => admission.run(context(), s.search));
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 2 });

    searches[1].finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    searches[0].finish();
    await settle();
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    searches[2].finish();
    searches[3].finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
    expect({ running: admission.running, waiting: admission.waiting, peak: admission.peakRunning }).toEqual({ running: 0, waiting: 0, peak: 2 });
  });

  it("runs a request's searches under its one place: five aliases take one place, not five", async () => {
    const admission = new SearchAdmission(2);
    const log: string[] = [];
    const many = context();
    const aliases = [1, 2, 3, 4, 5].map((i) => controlled(log, `alias${i}`));
    const other = controlled(log, 'other');
    const answers = [...aliases.map((a) => admission.run(many, a.search)), admission.run(context(), other.search)];
    await settle();
    expect(log).toEqual(['alias1', 'alias2', 'alias3', 'alias4', 'alias5', 'other']);
    expect(admission.running).toBe(2);

    // The place goes back when the request's last search ends, not its first.
    const third = controlled(log, 'third');
    const thirdAnswer = admission.run(context(), third.search);
    other.finish();
    await settle();
    expect(log.at(-1)).toBe('third');
    for (const a of aliases.slice(0, 4)) a.finish();
    await settle();
    expect(admission.running).toBe(2);
    aliases[4].finish();
    third.finish();
    await Promise.all([...answers, thirdAnswer]);
    expect(admission.running).toBe(0);
  });

  it('drops a request abandoned while it waits, and the next in line starts', async () => {
    const admission = new SearchAdmission(1);
    const log: string[] = [];
    const first = controlled(log, 'first');
    const leaving = new AbortController();
    const abandoned = controlled(log, 'abandoned');
    const next = controlled(log, 'next');
    const answers = [admission.run(context(), first.search), admission.run(context(leaving.signal), abandoned.search), admission.run(context(), next.search)];
    await settle();
    expect(admission.waiting).toBe(2);

    leaving.abort(new Error('client went away'));
    await expect(answers[1]).rejects.toThrow('client went away');
    expect(admission.waiting).toBe(1);
    first.finish();
    await settle();
    expect(log).toEqual(['first', 'next']);
    next.finish();
    await Promise.all([answers[0], answers[2]]);
  });

  it('refuses a request abandoned before it asks, without counting it', async () => {
    const admission = new SearchAdmission(1);
    const gone = new AbortController();
    gone.abort(new Error('client went away'));
    const log: string[] = [];
    await expect(admission.run(context(gone.signal), controlled(log, 'never').search)).rejects.toThrow('client went away');
    expect({ log, running: admission.running, waiting: admission.waiting }).toEqual({ log: [], running: 0, waiting: 0 });
    const next = controlled(log, 'next');
    const answer = admission.run(context(), next.search);
    next.finish();
    await expect(answer).resolves.toBe('next');
  });

  it('gives the place back when a search fails', async () => {
    const admission = new SearchAdmission(1);
    const log: string[] = [];
    const failing = controlled(log, 'failing');
    const after = controlled(log, 'after');
    const failed = admission.run(context(), failing.search);
    const later = admission.run(context(), after.search);
    failing.fail(new Error('engine failed'));
    await expect(failed).rejects.toThrow('engine failed');
    await settle();
    expect(log).toEqual(['failing', 'after']);
    after.finish();
    await expect(later).resolves.toBe('after');
    expect(admission.running).toBe(0);
  });

  it('has no gate with size 0', async () => {
    const admission = new SearchAdmission(0);
    const log: string[] = [];
    const searches = ['a', 'b', 'c'].map((name) => controlled(log, name));
    const answers = searches.map((s) => admission.run(context(), s.search));
    await settle();
    expect(log).toEqual(['a', 'b', 'c']);
    for (const s of searches) s.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
  });
});
