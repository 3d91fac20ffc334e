/**
 * The usage over time of the shown selection: the chart, the same figures as a table, and the
 * CSV of exactly those rows. A refusal (range, scope) is handed up so the form shows it next to
 * the field it is about.
 */
import { useEffect, useMemo } from 'react';
import { useQuery } from '../../app/hooks';
import type { ApiError } from '../../api/errors';
import { countryLabel } from '../../components/catalogue';
import { Empty, ErrorState, Loading } from '../../components/states';
import { type AnalyticsGranularity, CountryUsageDocument, SourceUsageDocument } from '../../gql/graphql';
import AnalyticsChart from './AnalyticsChart';
import { type Dimension, figureRows, figuresCsv, MEASURES, type MeasureKey, type UsagePeriod } from './analytics-data';
import { UsageTable } from './UsageTable';

export interface Selection {
  dimension: Dimension;
  sources: string[];
  countries: string[];
  from: string;
  to: string;
  granularity: AnalyticsGranularity;
}

/** Which form field a refusal is about: the range's ends, or the chosen sources/countries (scope). */
function refusalOf(error: ApiError, dimension: Dimension): { field: string; message: string } | null {
  if (error.kind === 'forbidden') return { field: dimension, message: error.message };
  if (error.kind !== 'validation') return null;
  for (const field of ['from', 'to', dimension]) {
    const message = error.fieldMessage(field);
    // the server's validator prefixes custom rules with "Value error, "
    if (message) return { field, message: `${field === 'to' ? 'To' : field === 'from' ? 'From' : 'These'}: ${message.replace(/^Value error, /, '')}` };
  }
  return { field: 'to', message: error.message };
}

export function UsageSection({ selection: s, measure, onRefused }: { selection: Selection; measure: MeasureKey; onRefused(r: { field: string; message: string } | null): void }) {
  const range = { from: s.from, to: s.to, granularity: s.granularity };
  const bySource = useQuery(SourceUsageDocument, { sources: s.sources, ...range }, { skip: s.dimension !== 'sources' });
  const byCountry = useQuery(CountryUsageDocument, { countries: s.countries, ...range }, { skip: s.dimension !== 'countries' });
  const result = s.dimension === 'sources' ? bySource : byCountry;
  const periods: UsagePeriod[] | undefined = s.dimension === 'sources' ? bySource.data?.sourceUsage.periods : byCountry.data?.countryUsage.periods;
  const refusal = result.error ? refusalOf(result.error, s.dimension) : null;
  useEffect(() => onRefused(refusal), [refusal?.field, refusal?.message]); // eslint-disable-line react-hooks/exhaustive-deps

  const measureInfo = MEASURES.find((m) => m.key === measure)!;
  const rows = useMemo(() => (periods ? figureRows(periods, measure) : []), [periods, measure]);
  const csvUrl = useMemo(() => (rows.length > 0 ? URL.createObjectURL(new Blob([figuresCsv(rows, s.dimension, measure)], { type: 'text/csv' })) : null), [rows, s.dimension, measure]);
  useEffect(() => () => void (csvUrl && URL.revokeObjectURL(csvUrl)), [csvUrl]);
  const itemLabel = s.dimension === 'countries' ? countryLabel : (x: string) => x;
  const caption = `${measureInfo.label} per ${s.granularity.toLowerCase()}, ${s.from} to ${s.to} (UTC)`;

  return (
    <section className="card" aria-labelledby="usage-title" aria-busy={result.loading}>
      <h2 id="usage-title">Usage over time</h2>
      {result.error && (refusal ? <p className="form-error" role="alert">The request was refused: {refusal.message}</p> : <ErrorState error={result.error} onRetry={result.reload} />)}
      {!periods && !result.error && <Loading label="Loading the figures…" />}
      {periods && !result.error && (
        rows.length === 0 ? (
          <Empty title="No periods in this range" />
        ) : (
          <>
            <AnalyticsChart rows={rows} measureLabel={measureInfo.label} caption={caption} />
            {csvUrl && (
              <p>
                <a className="button secondary" href={csvUrl} download={`analytics-${s.dimension}-${measureInfo.csv}-${s.from}-${s.to}.csv`}>
                  Download CSV of this chart
                </a>
              </p>
            )}
            <h3>The figures</h3>
            <UsageTable rows={rows} dimension={s.dimension} measureLabel={measureInfo.label} itemLabel={itemLabel} />
          </>
        )
      )}
    </section>
  );
}
