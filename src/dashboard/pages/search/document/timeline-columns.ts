/** The timeline's columns from the per-year counts (pure, so node's tests load it as it is). */

export interface YearCount {
  year: number | null;
  count: number;
}

/** Longest run of years drawn; an older tail is summed into its first column's label. */
const MAX_YEARS = 60;

/** Every year from the first to the last (gaps at 0), the undated count last. */
export function timelineColumns(years: readonly YearCount[]): { label: string; count: number }[] {
  const dated = years.filter((y): y is { year: number; count: number } => y.year !== null);
  const undated = years.filter((y) => y.year === null).reduce((sum, y) => sum + y.count, 0);
  const columns: { label: string; count: number }[] = [];
  if (dated.length) {
    const last = Math.max(...dated.map((y) => y.year));
    const first = Math.max(Math.min(...dated.map((y) => y.year)), last - MAX_YEARS + 1);
    const byYear = new Map(dated.map((y) => [y.year, y.count]));
    const before = dated.filter((y) => y.year < first).reduce((sum, y) => sum + y.count, 0);
    for (let year = first; year <= last; year++) {
      const label = year === first && before > 0 ? `≤ ${year}` : String(year);
      columns.push({ label, count: (byYear.get(year) ?? 0) + (year === first ? before : 0) });
    }
  }
  if (undated > 0) columns.push({ label: 'undated', count: undated });
  return columns;
}
