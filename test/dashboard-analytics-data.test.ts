/** The analytics page's rows and CSV (src/dashboard/pages/analytics/analytics-data.ts): withheld values stay empty, never 0. */
import { chartData, figureRows, figuresCsv, suppressionReason, type UsagePeriod } from '../src/dashboard/pages/analytics/analytics-data.js';

const count = (value: number | null, suppressed = false) => ({ value, suppressed });
function period(source: string, day: string, documents: { value: number | null; suppressed: boolean }): UsagePeriod {
  return { source, periodStart: day, periodEnd: day, searches: count(0), hits: count(0), documentsFetched: documents, resolutions: count(0), distinctAccounts: count(0) };
}

describe('analytics figures and their CSV', () => {
  const periods = [period('DE/BGH', '2026-03-01', count(7)), period('DE/BGH', '2026-03-02', count(null, true)), period('FR/"Cass, civ"', '2026-03-01', count(12, true))];

  it('writes a withheld value as an empty field with suppressed true, a partly withheld one with its value', () => {
    const csv = figuresCsv(figureRows(periods, 'documentsFetched'), 'sources', 'documentsFetched');
    expect(csv.split('\r\n')).toEqual([
      'source,period_start,period_end,documents_fetched,suppressed',
      'DE/BGH,2026-03-01,2026-03-01,7,false',
      'DE/BGH,2026-03-02,2026-03-02,,true',
      '"FR/""Cass, civ""",2026-03-01,2026-03-01,12,true',
      '',
    ]);
  });

  it('gives the reason in words and draws a withheld cell as a marker, not as its value', () => {
    const rows = figureRows(periods, 'documentsFetched');
    expect(rows.map(suppressionReason)).toEqual([null, 'Withheld: fewer than 5 distinct accounts on every day of this period', 'Partly withheld: days with fewer than 5 distinct accounts are left out of this value']);
    const { items, data, marker } = chartData(rows);
    expect(items).toEqual(['DE/BGH', 'FR/"Cass, civ"']);
    const second = data.find((d) => d.period === '2026-03-02')!;
    expect(second['DE/BGH']).toBeNull();
    expect(second['DE/BGH\u0000withheld']).toBe(marker);
    expect(data.find((d) => d.period === '2026-03-01')!['DE/BGH\u0000withheld']).toBeNull();
  });
});
