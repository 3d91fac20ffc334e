/**
 * The usage chart (Recharts, loaded with this page only): one bar per item and period. A cell
 * withheld for privacy is a short grey hatched bar (not 0); a partly withheld value has a dashed
 * outline; hovering a period names the reason. The chart is hidden from screen readers: the table
 * beside it (UsageTable) carries the same figures and reasons.
 */
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { chartData, type FigureRow, suppressionReason } from './analytics-data';

const COLOURS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f', '#a21caf'];
const W = '\u0000withheld';
const P = '\u0000partial';

interface TipProps {
  active?: boolean;
  label?: string;
  payload?: { payload: Record<string, string | number | null> }[];
}

function PeriodTooltip({ active, label, payload, items, measureLabel }: TipProps & { items: string[]; measureLabel: string }) {
  const entry = payload?.[0]?.payload;
  if (!active || !entry) return null;
  return (
    <div className="chart-tooltip" data-testid="chart-tooltip">
      <p>
        <strong>
          {label}
          {entry.periodEnd !== label ? ` – ${entry.periodEnd}` : ''}
        </strong>
      </p>
      <ul>
        {items.map((item) => {
          const value = entry[item] as number | null;
          const reason = suppressionReason({ value, suppressed: entry[item + W] !== null || entry[item + P] === 1 });
          return (
            <li key={item}>
              {item}: {measureLabel} {value === null ? '—' : value}
              {reason && <span className="suppressed-reason"> ({reason})</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export default function AnalyticsChart({ rows, measureLabel, caption }: { rows: FigureRow[]; measureLabel: string; caption: string }) {
  const { items, data } = chartData(rows);
  return (
    <figure className="chart" aria-label={caption}>
      <div style={{ width: '100%', height: 280 }} aria-hidden="true" data-testid="analytics-chart">
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <defs>
              <pattern id="withheld-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="6" height="6" fill="#e7e5e4" />
                <line x1="0" y1="0" x2="0" y2="6" stroke="#78716c" strokeWidth="2" />
              </pattern>
            </defs>
            <CartesianGrid strokeDasharray="3 3" stroke="#d6d3d1" />
            <XAxis dataKey="period" tick={{ fill: '#57534e', fontSize: 12 }} minTickGap={12} />
            <YAxis allowDecimals={false} tick={{ fill: '#57534e', fontSize: 12 }} width={44} />
            <Tooltip content={<PeriodTooltip items={items} measureLabel={measureLabel} />} />
            <Legend />
            {items.flatMap((item, i) => [
              <Bar key={item} dataKey={item} name={item} stackId={item} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false}>
                {data.map((d) => (
                  <Cell key={String(d.period)} stroke={d[item + P] === 1 ? '#1c1917' : undefined} strokeDasharray={d[item + P] === 1 ? '4 2' : undefined} strokeWidth={d[item + P] === 1 ? 2 : 0} />
                ))}
              </Bar>,
              <Bar key={item + W} dataKey={item + W} name={`${item}: withheld`} legendType="none" stackId={item} fill="url(#withheld-hatch)" stroke="#78716c" isAnimationActive={false} />,
            ])}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="small muted">
        {caption}. Grey hatched bars: withheld for privacy (fewer than 5 distinct accounts); a dashed outline: partly withheld. The same figures are in the table below.
      </figcaption>
    </figure>
  );
}
