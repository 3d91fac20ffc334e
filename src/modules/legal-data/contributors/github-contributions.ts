/**
 * Contributions from GitHub's REST API: the issues and pull-request listings of one repository
 * (`GET /repos/{owner}/{repo}/issues?state=all` and `.../pulls?state=all`, 100 a page, following
 * the `Link: rel="next"` header), attributed to sources the way the corpus file is: the
 * `<country>/<source_name>` identifiers the thread's title and text name, their common country
 * prefix, else the country the thread states. The issues listing also lists pull requests
 * (they carry `pull_request`); those are taken from the pulls listing only, so each is counted once.
 */
import type { Contribution } from './contribution.js';
import { isBotName } from './contribution.js';

export interface GithubSettings {
  /** `owner/name`. */
  repo: string;
  token: string | undefined;
  /** `https://api.github.com`, or a local server speaking the same API (tests). */
  apiBase: string;
  timeoutMs?: number;
  /** Stops runaway paging (100 pages = 10,000 threads per listing). */
  maxPages?: number;
}

interface GithubThread {
  number: number;
  title?: string | null;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  created_at?: string;
  state?: string;
  merged_at?: string | null;
  pull_request?: unknown;
}

const COUNTRY = '(?:[A-Z]{2}|EU|CoE|INTL|UN|OECD)';
const SOURCE_ID = new RegExp(`(?<![\\w/])${COUNTRY}/[A-Za-z0-9][A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]+)*`, 'g');
/** A "Country" field of the issue templates (`### Country\n\nFR`, `**Country:** FR`, `Country: FR`). */
const COUNTRY_FIELD = new RegExp(`country\\W{0,6}\\s*(${COUNTRY})\\b`, 'i');

/** Source identifiers named in `text`, without duplicates, in order of appearance. */
export function sourcesNamedIn(text: string): string[] {
  return [...new Set(text.match(SOURCE_ID) ?? [])];
}

/** The common prefix of `sources`, else the country the text states; null when unclear. */
export function countryOf(sources: string[], text: string): string | null {
  const prefixes = new Set(sources.map((s) => s.split('/')[0]!));
  if (prefixes.size === 1) return [...prefixes][0]!;
  if (prefixes.size > 1) return null;
  const stated = COUNTRY_FIELD.exec(text)?.[1];
  if (!stated) return null;
  return /^coe$/i.test(stated) ? 'CoE' : /^(eu|intl|un|oecd)$/i.test(stated) ? stated.toUpperCase() : stated.length === 2 ? stated.toUpperCase() : null;
}

function toContribution(thread: GithubThread, kind: 'issue' | 'pull_request'): Contribution {
  const text = `${thread.title ?? ''}\n${thread.body ?? ''}`;
  const sources = sourcesNamedIn(text);
  const login = thread.user?.login ?? null;
  return {
    kind,
    id: String(thread.number),
    login,
    author: login,
    date: thread.created_at ? thread.created_at.slice(0, 10) : null,
    sources,
    country: countryOf(sources, text),
    bot: thread.user?.type === 'Bot' || isBotName(login),
  };
}

/** The URL of the `rel="next"` page in a Link header, or null. */
export function nextPage(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match) return match[1]!;
  }
  return null;
}

export class GithubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GithubError';
  }
}

async function listAll(settings: GithubSettings, listing: 'issues' | 'pulls'): Promise<GithubThread[]> {
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'legal-search-contributors',
  };
  if (settings.token) headers.authorization = `Bearer ${settings.token}`;
  const threads: GithubThread[] = [];
  let url: string | null = `${settings.apiBase}/repos/${settings.repo}/${listing}?state=all&per_page=100&page=1`;
  for (let page = 0; url && page < (settings.maxPages ?? 100); page++) {
    const res: Response = await fetch(url, { headers, signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000) });
    // the status only: GitHub's error bodies may echo request details
    if (!res.ok) throw new GithubError(`GitHub answered ${res.status} for the ${listing} listing of ${settings.repo}`);
    const body = (await res.json()) as unknown;
    if (!Array.isArray(body)) throw new GithubError(`GitHub's ${listing} listing of ${settings.repo} is not a list`);
    threads.push(...(body as GithubThread[]));
    url = nextPage(res.headers.get('link'));
  }
  return threads;
}

/** Every issue and pull request of the repository as contributions. */
export async function fetchGithubContributions(settings: GithubSettings): Promise<Contribution[]> {
  const [issues, pulls] = await Promise.all([listAll(settings, 'issues'), listAll(settings, 'pulls')]);
  return [
    ...issues.filter((thread) => thread.pull_request === undefined).map((thread) => toContribution(thread, 'issue')),
    ...pulls.map((thread) => toContribution(thread, 'pull_request')),
  ];
}
