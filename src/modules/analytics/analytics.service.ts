/**
 * The analytics queries (issue #35 item 3): usage per source or country and period, a source's
 * top documents, the resolver's outcomes per country. Each checks the caller's scope first
 * (analytics-access.ts), validates the range (at most 400 days, UTC days), reads day cells and
 * rolls them up under the privacy rule (analytics-privacy.ts: suppressed per day, before any sum).
 */
import type { RequestContext } from '../../context.js';
import { parseInput } from '../../validation.js';
import type { OperationLimiter } from '../usage/operation-limits.js';
import { analyticsScopeOf, requireInScope } from './analytics-access.js';
import { type CellKind, GRID_DOCUMENT, GRID_MATCH, gridParts } from './analytics-events.js';
import { distinctAccountsValue, type DayMeasure, released, rollUp, rollUpReleased } from './analytics-privacy.js';
import { periodKey, periodsOf } from './analytics-periods.js';
import { type DayCell, dayCells, documentMetadata, type GridMeasures, gridSums } from './analytics-read.queries.js';
import {
  type CountryUsageAnswer,
  countryUsageQuerySchema,
  type Granularity,
  type ResolverOutcomesAnswer,
  resolverOutcomesQuerySchema,
  type SourceUsageAnswer,
  sourceUsageQuerySchema,
  type SuppressibleCount,
  type TopDocumentsAnswer,
  topDocumentsQuerySchema,
} from './analytics.schema.js';

/** Queued analytics events are written before a read (the recorder's flush), so a read sees every counted call. */
export interface PendingEvents {
  flush(): Promise<void>;
}

interface UsagePeriod {
  periodStart: string;
  periodEnd: string;
  searches: SuppressibleCount;
  hits: SuppressibleCount;
  documentsFetched: SuppressibleCount;
  resolutions: SuppressibleCount;
  distinctAccounts: SuppressibleCount;
}

export class AnalyticsService {
  constructor(private readonly deps: { pending: PendingEvents; limits: Pick<OperationLimiter, 'check'> }) {}

  /** Per source and period: searches returning it, its hits, documents fetched, resolutions to it, distinct accounts. */
  async sourceUsage(ctx: RequestContext, input: unknown): Promise<SourceUsageAnswer> {
    await this.deps.limits.check(ctx, 'analytics_source_usage');
    const scope = await analyticsScopeOf(ctx);
    const query = parseInput(sourceUsageQuerySchema, input);
    requireInScope(scope, { sources: query.sources });
    const periods = await this.usagePeriods(ctx, 'source', query.sources, query);
    return { from: query.from, to: query.to, granularity: query.granularity, periods: periods.map(({ scope: source, ...p }) => ({ source, ...p })) };
  }

  /** Per country and period: searches filtered by it, hits from it, documents fetched, resolutions, distinct accounts. */
  async countryUsage(ctx: RequestContext, input: unknown): Promise<CountryUsageAnswer> {
    await this.deps.limits.check(ctx, 'analytics_country_usage');
    const scope = await analyticsScopeOf(ctx);
    const query = parseInput(countryUsageQuerySchema, input);
    requireInScope(scope, { countries: query.countries });
    const periods = await this.usagePeriods(ctx, 'country', query.countries, query);
    return { from: query.from, to: query.to, granularity: query.granularity, periods: periods.map(({ scope: country, ...p }) => ({ country, ...p })) };
  }

  /** The source's documents most fetched over the range (only those with a released day). */
  async topDocuments(ctx: RequestContext, input: unknown): Promise<TopDocumentsAnswer> {
    await this.deps.limits.check(ctx, 'analytics_top_documents');
    const scope = await analyticsScopeOf(ctx);
    const query = parseInput(topDocumentsQuerySchema, input);
    requireInScope(scope, { sources: [query.source] });
    await this.deps.pending.flush();
    const cells = await dayCells(ctx.em, { kind: 'grid', scopes: [query.source], item: null, gridDetail: GRID_DOCUMENT, from: query.from, to: query.to });
    // a document's cells (one per country it was fetched under, normally one) are summed together
    const byDocument = groupBy(cells, (c) => gridParts(c.item).detail.slice(GRID_DOCUMENT.length));
    const ranked = [...byDocument].map(([sourceId, days]) => ({ sourceId, fetches: rollUp(days.map((d) => d.measures.documents)) }));
    const suppressed = ranked.some((d) => d.fetches.suppressed);
    const shown = ranked.filter((d) => (d.fetches.value ?? 0) > 0).sort((a, b) => b.fetches.value! - a.fetches.value! || a.sourceId.localeCompare(b.sourceId)).slice(0, query.limit);
    const meta = await documentMetadata(ctx.em, query.source, shown.map((d) => d.sourceId));
    return {
      source: query.source,
      from: query.from,
      to: query.to,
      suppressed,
      documents: shown.map((d) => ({ id: `${query.source}/${d.sourceId}`, sourceId: d.sourceId, namespace: meta.get(d.sourceId)?.namespace ?? '', country: meta.get(d.sourceId)?.country ?? '', fetches: d.fetches })),
    };
  }

  /**
   * Resolutions per country and match type over the range. Without `countries`: a partner's
   * countries, or for an administrator every country and the references that resolved to none
   * (country null).
   */
  async resolverOutcomes(ctx: RequestContext, input: unknown): Promise<ResolverOutcomesAnswer> {
    await this.deps.limits.check(ctx, 'analytics_resolver_outcomes');
    const scope = await analyticsScopeOf(ctx);
    const query = parseInput(resolverOutcomesQuerySchema, input);
    if (query.countries) requireInScope(scope, { countries: query.countries });
    const countries = query.countries ?? (scope.all ? null : [...scope.countries]);
    await this.deps.pending.flush();
    const filter = { kind: 'grid' as const, scopes: null, item: null, gridDetail: GRID_MATCH, from: query.from, to: query.to, ...(countries ? { gridCountries: countries } : {}) };
    const cells = countries?.length === 0 ? [] : await dayCells(ctx.em, filter);
    // one outcome per (country, match type): the sum of its released (source, country, match, day) cells
    const outcomes = [...groupBy(cells, (c) => c.item)].map(([item, days]) => {
      const { country, detail } = gridParts(item);
      return { country: country === '' ? null : country, matchType: detail.slice(GRID_MATCH.length), resolutions: rollUp(days.map((d) => d.measures.resolutions)) };
    });
    outcomes.sort((a, b) => (a.country ?? '').localeCompare(b.country ?? '') || a.matchType.localeCompare(b.matchType));
    return { from: query.from, to: query.to, outcomes };
  }

  /** Every period of every scope, each measure rolled up from its released day cells. */
  private async usagePeriods(ctx: RequestContext, kind: CellKind, scopes: string[], query: { from: string; to: string; granularity: Granularity }): Promise<(UsagePeriod & { scope: string })[]> {
    await this.deps.pending.flush();
    const filter = { kind, scopes, item: '', from: query.from, to: query.to };
    // per week or month, the released day cells bring their accounts along (distinct accounts over them)
    const [cells, grid] = await Promise.all([
      dayCells(ctx.em, filter, query.granularity !== 'DAY'),
      gridSums(ctx.em, kind === 'source' ? 'source' : 'country', scopes, query.from, query.to),
    ]);
    const distinct = distinctAccountsOf(cells, query.granularity);
    const byPeriod = groupBy(cells, (c) => `${c.scope}\u0000${periodKey(c.day, query.granularity)}`);
    const gridByPeriod = new Map<string, GridMeasures[]>();
    for (const [scope, days] of grid) {
      for (const [day, measures] of days) {
        const key = `${scope}\u0000${periodKey(day, query.granularity)}`;
        gridByPeriod.set(key, [...(gridByPeriod.get(key) ?? []), measures]);
      }
    }
    const periods = periodsOf(query.from, query.to, query.granularity);
    return [...new Set(scopes)].flatMap((scope) =>
      periods.map((period) => {
        const key = `${scope}\u0000${period.key}`;
        const days = byPeriod.get(key) ?? [];
        const any: DayMeasure[] = days.map((d) => ({ sum: d.accounts, accounts: d.accounts }));
        const gridDays = gridByPeriod.get(key) ?? [];
        return {
          scope,
          periodStart: period.start,
          periodEnd: period.end,
          // searches have no finer breakdown (a search returning a source is not one filtered by its country)
          searches: rollUp(days.map((d) => d.measures.searches)),
          hits: rollUpReleased(gridDays.map((g) => g.hits)),
          documentsFetched: rollUpReleased(gridDays.map((g) => g.documents)),
          resolutions: rollUpReleased(gridDays.map((g) => g.resolutions)),
          distinctAccounts: distinctAccountsValue(distinct.get(key) ?? 0, any.some((d) => d.accounts > 0 && !released(d)), any.length > 0),
        };
      }),
    );
  }
}

/** Distinct accounts per scope and period over its released day cells (per day: the cell's own accounts). */
function distinctAccountsOf(cells: readonly DayCell[], granularity: Granularity): Map<string, number> {
  const accounts = new Map<string, Set<string> | number>();
  for (const cell of cells) {
    if (!released({ sum: cell.accounts, accounts: cell.accounts })) continue;
    const key = `${cell.scope}\u0000${periodKey(cell.day, granularity)}`;
    if (granularity === 'DAY') accounts.set(key, cell.accounts);
    else {
      const seen = accounts.get(key) as Set<string> | undefined;
      if (seen) for (const account of cell.releasedAccounts ?? []) seen.add(account);
      else accounts.set(key, new Set(cell.releasedAccounts));
    }
  }
  return new Map([...accounts].map(([key, value]) => [key, typeof value === 'number' ? value : value.size]));
}

function groupBy(cells: readonly DayCell[], keyOf: (cell: DayCell) => string): Map<string, DayCell[]> {
  const groups = new Map<string, DayCell[]>();
  for (const cell of cells) {
    const key = keyOf(cell);
    const group = groups.get(key);
    if (group) group.push(cell);
    else groups.set(key, [cell]);
  }
  return groups;
}
