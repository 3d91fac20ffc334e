/**
 * Searches in arrival order (SEARCH_CONCURRENCY, src/modules/legal-data/search-admission.ts),
 * through the real service over HTTP: with one place, concurrent REST searches and a GraphQL
 * operation of several aliased searches all answer, never more than one request searches at a
 * time (the operation's aliases share its place), and every answer is the one the same search
 * gets alone. Asserted by what the admission saw (`searchAdmission.peakRunning`), never by a
 * duration: the latency figures are in docs/search.md (`npm run bench:soak`, `npm run bench`).
 */
import type { Platform } from '../src/platform.js';
import { call, cookieFrom } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const QUERIES = ['protection of personal data', 'responsabilité du fait des produits', 'consentement', 'transfer to third countries', 'droit de rétractation', 'supervisory authority'];

describe('searches in arrival order', () => {
  let platform: Platform;
  let url: string;
  let key: string;

  beforeAll(async () => {
    platform = await startTestPlatform(
      [
        { file: 'legislation/EU-EUR-Lex.jsonl.gz', lines: 60 },
        { file: 'legislation/FR-LegifranceCodes.jsonl.gz', lines: 60 },
      ],
      { DEV_LOGIN: 'true', RATE_LIMITS: 'false', SEARCH_CONCURRENCY: '1' },
    );
    url = platform.url!;
    const cookie = cookieFrom((await call(`${url}/auth/dev-login`, 'POST', { email: 'admission@example.org' })).headers, 'session')!;
    key = (await call(`${url}/v1/keys`, 'POST', { name: 'admission' }, { cookie })).body.key as string;
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
  });

  const search = (q: string) => call(`${url}/v1/search`, 'POST', { q, namespace: 'legislation', top_k: 5 }, { key });
  const hitsOf = (body: { hits: { id: string; score: number }[] }) => body.hits.map((h) => [h.id, h.score]);

  it('answers concurrent searches one request at a time, the aliases of one operation under its one place, each as it would alone', async () => {
    const alone = new Map<string, unknown>();
    for (const q of QUERIES) {
      const answer = await search(q);
      expect(answer.status).toBe(200);
      alone.set(q, hitsOf(answer.body));
    }
    expect([...alone.values()].filter((hits) => (hits as unknown[]).length > 0).length).toBeGreaterThan(3);
    const admission = platform.legalData.searchAdmission;
    expect(admission.size).toBe(1);

    const operation = `{ ${QUERIES.slice(0, 3)
      .map((q, i) => `s${i}: search(input: { q: ${JSON.stringify(q)}, namespace: legislation, topK: 5 }) { hits { id score } }`)
      .join(' ')} }`;
    const [graphql, ...rest] = await Promise.all([call(`${url}/graphql`, 'POST', { query: operation }, { key }), ...QUERIES.map(search)]);

    // they did meet: some waited their turn, and none ran beside another
    expect(admission.peakWaiting).toBeGreaterThan(0);
    expect(admission.peakRunning).toBe(1);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 0, waiting: 0 });
    rest.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(hitsOf(answer.body)).toEqual(alone.get(QUERIES[i]));
    });
    expect(graphql.status).toBe(200);
    expect(graphql.body.errors).toBeUndefined();
    QUERIES.slice(0, 3).forEach((q, i) => expect(hitsOf(graphql.body.data[`s${i}`])).toEqual(alone.get(q)));
  });
  it('refuses a malformed search at once (422), without waiting for a place', async () => {
    const admission = platform.legalData.searchAdmission;
    // another request holds the one place (a stand-in for a long search)
    let release!: () => void;
    const held = admission.run({ loader: (_key: unknown, make: () => unknown) => make(), signal: new AbortController().signal } as never, () => new Promise<void>((resolve) => (release = resolve)));
    let holding = true;
    // released after 10 s in any case, so that a request that did wait ends the test (failing it)
    const safety = setTimeout(() => {
      holding = false;
      release();
    }, 10_000);
    try {
      const answer = await call(`${url}/v1/search`, 'POST', { q: 'consentement', namespace: 'legislation', top_k: 0 }, { key });
      const answeredWhileHeld = holding;
      expect(answer.status).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(['body', 'top_k']);
      expect(answeredWhileHeld).toBe(true);
      expect(admission.waiting).toBe(0);
    } finally {
      clearTimeout(safety);
      release();
      await held;
    }
  });
});
