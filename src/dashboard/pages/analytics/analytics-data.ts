/**
 * The analytics page's figures in one shape, whichever query answered (sources or countries):
 * one row per item and period for the chosen measure, and the same rows as CSV. A withheld value
 * stays null (never 0), with `suppressed` saying so.
 */
export type Dimension = 'sources' | 'countries';

export const MEASURES = [
  { key: 'searches', label: 'Searches', csv: 'searches' },
  { key: 'hits', label: 'Hits', csv: 'hits' },
  { key: 'documentsFetched', label: 'Documents fetched', csv: 'documents_fetched' },
  { key: 'resolutions', label: 'Resolutions', csv: 'resolutions' },
  { key: 'distinctAccounts', label: 'Distinct accounts', csv: 'distinct_accounts' },
] as const;

export type MeasureKey = (typeof MEASURES)[number]['key'];

export interface Count {
  value?: number | null;
  suppressed: boolean;
}

/** A period of sourceUsage or countryUsage (the item is its source or its country). */
export type UsagePeriod = { periodStart: string; periodEnd: string; source?: string; country?: string } & Record<MeasureKey, Count>;

export interface FigureRow {
  item: string;
  periodStart: string;
  periodEnd: string;
  value: number | null;
  suppressed: boolean;
}

/** The rows the chart and its table show: the measure of every item in every period. */
export function figureRows(periods: UsagePeriod[], measure: MeasureKey): FigureRow[] {
  return periods.map((p) => ({
    item: p.source ?? p.country ?? '',
    periodStart: p.periodStart,
    periodEnd: p.periodEnd,
    value: p[measure].value ?? null,
    suppressed: p[measure].suppressed,
  }));
}

/** What a withheld value means, in words (the chart's tooltip, the table, screen readers). */
export function suppressionReason(row: Pick<FigureRow, 'value' | 'suppressed'>): string | null {
  if (!row.suppressed) return null;
  return row.value === null
    ? 'Withheld: fewer than 5 distinct accounts on every day of this period'
    : 'Partly withheld: days with fewer than 5 distinct accounts are left out of this value';
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The CSV of the chart: a header, then one line per item and period in the chart's order. A
 * withheld value is an empty field with `suppressed` true, never 0.
 */
export function figuresCsv(rows: FigureRow[], dimension: Dimension, measure: MeasureKey): string {
  const measureName = MEASURES.find((m) => m.key === measure)!.csv;
  const header = [dimension === 'sources' ? 'source' : 'country', 'period_start', 'period_end', measureName, 'suppressed'];
  const lines = rows.map((r) => [r.item, r.periodStart, r.periodEnd, r.value === null ? '' : String(r.value), String(r.suppressed)].map(csvField).join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

/** The chart's data: one entry per period, a key per item (null when withheld) and a marker key for withheld cells. */
export function chartData(rows: FigureRow[]): { items: string[]; data: Record<string, string | number | null>[]; marker: number } {
  const items = [...new Set(rows.map((r) => r.item))];
  const max = Math.max(1, ...rows.map((r) => r.value ?? 0));
  // a withheld cell is drawn as a short hatched bar of this height, so it is seen, not mistaken for 0
  const marker = Math.max(max * 0.06, 0.3);
  const byPeriod = new Map<string, Record<string, string | number | null>>();
  for (const r of rows) {
    let entry = byPeriod.get(r.periodStart);
    if (!entry) byPeriod.set(r.periodStart, (entry = { period: r.periodStart, periodEnd: r.periodEnd }));
    entry[r.item] = r.value;
    entry[`${r.item}\u0000withheld`] = r.value === null && r.suppressed ? marker : null;
    entry[`${r.item}\u0000partial`] = r.value !== null && r.suppressed ? 1 : 0;
  }
  return { items, data: [...byPeriod.values()], marker };
}

/** YYYY-MM-DD of a UTC day `offset` days from today. */
export function utcDay(offset = 0): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}
