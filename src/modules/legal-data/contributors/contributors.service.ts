/**
 * GET /v1/contributors: contributor credits per source, per country and overall. From GitHub's
 * REST API when a repository is configured (kept for one hour, as the spec says; when GitHub
 * fails the last good result is served with `stale: true`), else from the corpus file (read once).
 */
import type { RequestContext } from '../../../context.js';
import { DomainError } from '../../../errors.js';
import type { Logger } from '../../../logger.js';
import { computeCredits, type ContributorCredits } from './contribution.js';
import { readCorpusContributions } from './corpus-contributions.js';
import { fetchGithubContributions, type GithubSettings } from './github-contributions.js';

export const CONTRIBUTORS_CACHE_MS = 60 * 60 * 1000;

export interface ContributorsDeps {
  /** `contributions.jsonl.gz` of the corpus folder; undefined = no corpus. */
  corpusFile: string | undefined;
  github: GithubSettings | null;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** The clock (tests move it past the cache's hour). */
  now?: () => number;
}

export class ContributorsService {
  private cached: { credits: ContributorCredits; at: number } | null = null;
  private inFlight: Promise<ContributorCredits> | null = null;

  constructor(private readonly deps: ContributorsDeps) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Open to everyone (the spec's open endpoints); the context is taken for symmetry with every service. */
  async credits(_ctx: RequestContext): Promise<ContributorCredits> {
    if (this.cached && (!this.deps.github || this.now() - this.cached.at < CONTRIBUTORS_CACHE_MS)) return this.cached.credits;
    // one computation at a time: concurrent callers share it
    this.inFlight ??= this.compute().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async compute(): Promise<ContributorCredits> {
    const github = this.deps.github;
    if (!github) {
      const { contributions, skippedLines } = this.deps.corpusFile ? await readCorpusContributions(this.deps.corpusFile) : { contributions: [], skippedLines: 0 };
      if (skippedLines) this.deps.logger.warn(`contributors: ${skippedLines} unreadable line(s) in ${this.deps.corpusFile} left out`);
      const credits = computeCredits(contributions, 'corpus_file', new Date(this.now()));
      this.cached = { credits, at: this.now() };
      return credits;
    }
    try {
      const credits = computeCredits(await fetchGithubContributions(github), 'github', new Date(this.now()));
      this.cached = { credits, at: this.now() };
      return credits;
    } catch (error) {
      this.deps.logger.warn(`contributors: GitHub failed (${(error as Error).message}); ${this.cached ? 'serving the last good result' : 'nothing to serve yet'}`);
      // the stale result stays as it was, so the next request tries GitHub again
      if (this.cached) return { ...this.cached.credits, stale: true };
      throw new DomainError('unavailable', 'Contributor credits are not available: GitHub did not answer and none were computed yet');
    }
  }
}
