/**
 * GET /v1/contributors over HTTP: from the corpus file with exact counts (automation accounts
 * left out), and from a local server speaking GitHub's REST API (paging, the token, the one-hour
 * cache, the stale fallback when GitHub fails).
 */
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { createLogger } from '../src/logger.js';
import { ContributorsService, CONTRIBUTORS_CACHE_MS } from '../src/modules/legal-data/contributors/contributors.service.js';
import { contributorsRouter } from '../src/rest/contributors.routes.js';
import { errorHandler, notFoundHandler } from '../src/rest/errors.js';
import { RestApi } from '../src/rest/rest-api.js';
import { call, serve } from './helpers/http.js';
import { startLocalGithub, type LocalGithub } from './helpers/github-server.js';

const SHARED = process.env.SHARED_CORPUS_DIR ?? path.resolve('../shared/corpus');

async function serveService(service: ContributorsService) {
  const app = express();
  app.use(contributorsRouter(service, new RestApi('http://localhost')));
  app.use(notFoundHandler);
  app.use(errorHandler(createLogger('silent')));
  return serve(app);
}

describe('contributor credits from the corpus file', () => {
  let server: Awaited<ReturnType<typeof serveService>>;
  let lines: any[];

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contributors-'));
    const original = gunzipSync(await readFile(path.join(SHARED, 'contributions.jsonl.gz'))).toString('utf8');
    // the shared file has no automation account: add two, which must not count
    const bots = [
      { kind: 'pull_request', id: '9001', author: 'dependabot[bot]', login: 'dependabot[bot]', date: '2026-04-01', state: 'merged', title: 'Bump x', labels: [], sources: ['FR/ADLC'], country: 'FR', bot: true },
      { kind: 'commit', id: 'abc', author: 'github-actions[bot]', login: null, date: '2026-04-02T10:00:00Z', state: null, title: null, labels: [], sources: ['FR/ADLC'], country: null, bot: false },
    ];
    await writeFile(path.join(dir, 'contributions.jsonl.gz'), gzipSync(`${original.trimEnd()}\n${bots.map((b) => JSON.stringify(b)).join('\n')}\n`));
    lines = original.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    server = await serveService(new ContributorsService({ corpusFile: path.join(dir, 'contributions.jsonl.gz'), github: null, logger: createLogger('silent') }));
  });
  afterAll(async () => server?.close());

  it('counts every named contribution once per contributor, kind, country and source, bots left out', async () => {
    const res = await call(`${server.base}/v1/contributors`, 'GET');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ origin: 'corpus_file', stale: false, computed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    // 232 lines, one of them without any author: 231 credited contributions
    expect(lines).toHaveLength(232);
    expect(body.total_contributions).toBe(231);
    const names = new Set(lines.filter((l) => l.login ?? l.author).map((l) => l.login ?? l.author));
    expect(body.total_contributors).toBe(names.size);
    expect(body.top_contributors.map((c: any) => c.login)).not.toContain('dependabot[bot]');
    expect(body.top_contributors.map((c: any) => c.login)).not.toContain('github-actions[bot]');
    expect(body.top_contributors[0]).toEqual({ login: 'ZachLaik', issues: 59, pull_requests: 0, commits: 0, total: 59, first_contribution_at: '2026-03-15', last_contribution_at: '2026-09-23' });
    expect(body.top_contributors.find((c: any) => c.login === 'Zacharie Laik')).toMatchObject({ commits: 11, total: 11 });
    // every contributor's counts, recomputed line by line
    for (const credit of body.top_contributors) {
      const own = lines.filter((l) => (l.login ?? l.author) === credit.login);
      expect(credit).toMatchObject({
        issues: own.filter((l) => l.kind === 'issue').length,
        pull_requests: own.filter((l) => l.kind === 'pull_request').length,
        commits: own.filter((l) => l.kind === 'commit').length,
        total: own.length,
      });
    }
    // a source: the contributors whose lines name it (the bot pull request is not among them)
    const adlc = body.by_source.find((s: any) => s.source === 'FR/ADLC');
    // equal totals: the most recent first (the commit of 2026-04-27, then the issue of 2026-03-15)
    expect(adlc.contributors.map((c: any) => [c.login, c.issues, c.commits, c.last_contribution_at])).toEqual([
      ['Zacharie Laik', 0, 1, '2026-04-27T09:53:55+02:00'],
      ['ZachLaik', 1, 0, '2026-03-15'],
    ]);
    // a country: lines whose country or whose sources' prefix is CN
    const cn = body.by_country.find((c: any) => c.country === 'CN');
    expect(Object.fromEntries(cn.contributors.map((c: any) => [c.login, c.total]))).toEqual({ 'Zacharie Laik': 5, ZachLaik: 2, soisyhpe: 1 });
    expect(cn.contributors.map((c: any) => c.login)).toEqual(['Zacharie Laik', 'ZachLaik', 'soisyhpe']);
  });
});

describe('contributor credits from GitHub', () => {
  const REPO = 'worldwidelaw/legal-sources';
  const TOKEN = 'ghp_localtesttoken';
  let github: LocalGithub;
  let server: Awaited<ReturnType<typeof serveService>>;
  let now = Date.parse('2026-11-23T12:00:00Z');

  beforeAll(async () => {
    github = await startLocalGithub(REPO, { token: TOKEN });
    // 230 issues by three people (three pages), 12 pull requests (listed by both listings), one bot
    for (let n = 1; n <= 230; n++) {
      const login = n % 10 === 0 ? 'bob' : n % 3 === 0 ? 'carla' : 'ann';
      github.threads.push({
        number: n,
        title: n % 2 ? `[Report] FR/CASS number ${n}` : `[Suggest] new court`,
        body: n % 2 ? 'Broken text' : '### Country\n\nDE\n\nPlease add DE/BGH and DE/BAG.',
        user: { login, type: 'User' },
        created_at: new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString(),
        state: n % 4 ? 'open' : 'closed',
      });
    }
    for (let n = 231; n <= 242; n++) {
      github.threads.push({ number: n, title: 'Add IT/Senato fetcher', body: null, user: { login: 'dora', type: 'User' }, created_at: '2026-10-01T08:00:00Z', state: 'closed', merged_at: '2026-10-02T08:00:00Z', pull: true });
    }
    github.threads.push({ number: 243, title: 'Bump deps in FR/CASS', body: null, user: { login: 'renovate[bot]', type: 'Bot' }, created_at: '2026-10-03T08:00:00Z', state: 'open', pull: true });
    server = await serveService(
      new ContributorsService({ corpusFile: undefined, github: { repo: REPO, token: TOKEN, apiBase: github.url }, logger: createLogger('silent'), now: () => now }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await github?.stop();
  });

  it('reads every page of both listings, attributes sources and countries from the threads, counts each pull request once', async () => {
    const res = await call(`${server.base}/v1/contributors`, 'GET');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ origin: 'github', stale: false, total_contributions: 242, total_contributors: 4 });
    // issues: 3 pages of 100 (243 threads listed), pulls: 1 page
    expect(github.requests.filter((r) => r.includes('/issues')).map((r) => new URL(r, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(github.requests.filter((r) => r.includes('/pulls'))).toEqual([`/repos/${REPO}/pulls?state=all&per_page=100&page=1`]);
    const byLogin = Object.fromEntries(res.body.top_contributors.map((c: any) => [c.login, c]));
    const count = (pred: (n: number) => boolean) => Array.from({ length: 230 }, (_, i) => i + 1).filter(pred).length;
    expect(byLogin.bob).toMatchObject({ issues: count((n) => n % 10 === 0), pull_requests: 0, total: 23 });
    expect(byLogin.carla.issues).toBe(count((n) => n % 10 !== 0 && n % 3 === 0));
    expect(byLogin.ann.issues).toBe(count((n) => n % 10 !== 0 && n % 3 !== 0));
    expect(byLogin.dora).toMatchObject({ issues: 0, pull_requests: 12, first_contribution_at: '2026-10-01', last_contribution_at: '2026-10-01' });
    expect(byLogin['renovate[bot]']).toBeUndefined();
    const source = (id: string) => res.body.by_source.find((s: any) => s.source === id)?.contributors.reduce((sum: number, c: any) => sum + c.total, 0);
    expect(source('FR/CASS')).toBe(115); // the odd issues; the bot's pull request left out
    expect(source('DE/BGH')).toBe(115);
    expect(source('IT/Senato')).toBe(12);
    const country = (code: string) => res.body.by_country.find((c: any) => c.country === code)?.contributors.reduce((sum: number, c: any) => sum + c.total, 0);
    expect(country('DE')).toBe(115);
    expect(country('FR')).toBe(115);
  });

  it('serves the cached result for an hour, then asks GitHub again; when GitHub fails, the last good result with stale: true', async () => {
    const first = await call(`${server.base}/v1/contributors`, 'GET');
    const asked = github.requests.length;
    now += CONTRIBUTORS_CACHE_MS - 1000;
    const cached = await call(`${server.base}/v1/contributors`, 'GET');
    expect(github.requests.length).toBe(asked);
    expect(cached.body).toEqual(first.body);

    now += 2000; // past the hour
    github.threads.push({ number: 244, title: 'Vote for FR/CNIL', body: null, user: { login: 'erin', type: 'User' }, created_at: '2026-11-01T08:00:00Z', state: 'open' });
    const fresh = await call(`${server.base}/v1/contributors`, 'GET');
    expect(github.requests.length).toBeGreaterThan(asked);
    expect(fresh.body).toMatchObject({ stale: false, total_contributions: 243, total_contributors: 5 });
    expect(fresh.body.computed_at).not.toBe(first.body.computed_at);

    now += CONTRIBUTORS_CACHE_MS + 1;
    github.failWith = 502;
    const stale = await call(`${server.base}/v1/contributors`, 'GET');
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual({ ...fresh.body, stale: true });
    // GitHub back: the next request computes afresh
    github.failWith = null;
    github.threads.push({ number: 245, title: 'Vote for FR/CNIL', body: null, user: { login: 'erin', type: 'User' }, created_at: '2026-11-02T08:00:00Z', state: 'open' });
    const back = await call(`${server.base}/v1/contributors`, 'GET');
    expect(back.body).toMatchObject({ stale: false, total_contributions: 244 });
  });

  it('answers 503 when GitHub fails before any result was computed, and sends the token it was given', async () => {
    const wrongToken = new ContributorsService({ corpusFile: undefined, github: { repo: REPO, token: 'ghp_wrong', apiBase: github.url }, logger: createLogger('silent') });
    const other = await serveService(wrongToken);
    try {
      const res = await call(`${other.base}/v1/contributors`, 'GET');
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/GitHub/);
      expect(JSON.stringify(res.body)).not.toContain('ghp_wrong');
    } finally {
      await other.close();
    }
  });
});
