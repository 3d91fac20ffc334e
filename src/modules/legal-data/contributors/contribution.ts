/**
 * One contribution to the public data repository (an issue, a pull request or a commit), as the
 * corpus file `contributions.jsonl.gz` lists it (../shared/corpus/FORMAT.md) and as the GitHub
 * reader rebuilds it from the REST API; and how credits are counted from a list of them.
 */
export type ContributionKind = 'issue' | 'pull_request' | 'commit';

export interface Contribution {
  kind: ContributionKind;
  /** Thread number or commit sha. */
  id: string;
  /** GitHub login (threads; commits only where known). */
  login: string | null;
  /** Thread opener's login, or a commit's author name. */
  author: string | null;
  /** `YYYY-MM-DD` (threads) or an ISO 8601 timestamp (commits). */
  date: string | null;
  /** `<country>/<source_name>` identifiers the contribution names. */
  sources: string[];
  country: string | null;
  /** An automation account: left out of every credit. */
  bot: boolean;
}

export interface ContributorCredit {
  /** The GitHub login, or for a commit without one the author name as committed. */
  login: string;
  issues: number;
  pull_requests: number;
  commits: number;
  total: number;
  first_contribution_at: string | null;
  last_contribution_at: string | null;
}

export interface ContributorCredits {
  /** When these credits were computed from their origin (ISO 8601). */
  computed_at: string;
  /** `corpus_file` (contributions.jsonl.gz) or `github` (the REST API of CONTRIBUTORS_GITHUB_REPO). */
  origin: 'corpus_file' | 'github';
  /** True when GitHub failed and the last good result is served. */
  stale: boolean;
  total_contributions: number;
  total_contributors: number;
  /** Every contributor, most contributions first. */
  top_contributors: ContributorCredit[];
  by_country: { country: string; contributors: ContributorCredit[] }[];
  by_source: { source: string; contributors: ContributorCredit[] }[];
}

const KIND_FIELD = { issue: 'issues', pull_request: 'pull_requests', commit: 'commits' } as const;

/** An automation account's login or name (`dependabot[bot]`). */
export function isBotName(name: string | null | undefined): boolean {
  return Boolean(name && name.toLowerCase().endsWith('[bot]'));
}

/** The countries a contribution counts for: its `country` and its sources' prefixes. */
function countriesOf(c: Contribution): Set<string> {
  const countries = new Set<string>();
  if (c.country) countries.add(c.country);
  for (const source of c.sources) countries.add(source.split('/')[0]!);
  return countries;
}

/** Normalised date for comparisons: a thread day sorts before any commit time of the same day. */
function instant(date: string): number {
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? Number.NaN : ms;
}

class Tally {
  private readonly byName = new Map<string, ContributorCredit>();

  add(name: string, c: Contribution): void {
    let credit = this.byName.get(name);
    if (!credit) {
      credit = { login: name, issues: 0, pull_requests: 0, commits: 0, total: 0, first_contribution_at: null, last_contribution_at: null };
      this.byName.set(name, credit);
    }
    credit[KIND_FIELD[c.kind]] += 1;
    credit.total += 1;
    if (c.date && !Number.isNaN(instant(c.date))) {
      if (credit.first_contribution_at === null || instant(c.date) < instant(credit.first_contribution_at)) credit.first_contribution_at = c.date;
      if (credit.last_contribution_at === null || instant(c.date) > instant(credit.last_contribution_at)) credit.last_contribution_at = c.date;
    }
  }

  /** Most contributions first, then the most recent, then by name. */
  ranked(): ContributorCredit[] {
    return [...this.byName.values()].sort(
      (a, b) =>
        b.total - a.total ||
        (b.last_contribution_at ? instant(b.last_contribution_at) : 0) - (a.last_contribution_at ? instant(a.last_contribution_at) : 0) ||
        a.login.localeCompare(b.login),
    );
  }
}

/** Credits overall, per country and per source; bots and contributions with no name are left out. */
export function computeCredits(contributions: Contribution[], origin: ContributorCredits['origin'], now: Date): ContributorCredits {
  const overall = new Tally();
  const perCountry = new Map<string, Tally>();
  const perSource = new Map<string, Tally>();
  const tallyOf = (map: Map<string, Tally>, key: string) => map.get(key) ?? map.set(key, new Tally()).get(key)!;
  let counted = 0;
  for (const c of contributions) {
    const name = c.login ?? c.author;
    if (!name || c.bot || isBotName(name) || isBotName(c.author)) continue;
    counted += 1;
    overall.add(name, c);
    for (const country of countriesOf(c)) tallyOf(perCountry, country).add(name, c);
    for (const source of new Set(c.sources)) tallyOf(perSource, source).add(name, c);
  }
  const top = overall.ranked();
  const sortedKeys = (map: Map<string, Tally>) => [...map.keys()].sort((a, b) => a.localeCompare(b));
  return {
    computed_at: now.toISOString(),
    origin,
    stale: false,
    total_contributions: counted,
    total_contributors: top.length,
    top_contributors: top,
    by_country: sortedKeys(perCountry).map((country) => ({ country, contributors: perCountry.get(country)!.ranked() })),
    by_source: sortedKeys(perSource).map((source) => ({ source, contributors: perSource.get(source)!.ranked() })),
  };
}
