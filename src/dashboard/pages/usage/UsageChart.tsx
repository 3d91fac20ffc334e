/** Requests per day over the period (Recharts), with the same figures as a table for screen readers. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export default function UsageChart({ days }: { days: { date: string; count: number }[] }) {
  return (
    <figure className="chart" aria-labelledby="chart-caption">
      <div style={{ width: '100%', height: 240 }} aria-hidden="true">
        <ResponsiveContainer>
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#d6d3d1" />
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} tick={{ fill: '#57534e', fontSize: 12 }} minTickGap={12} />
            <YAxis allowDecimals={false} tick={{ fill: '#57534e', fontSize: 12 }} width={40} />
            <Tooltip />
            <Bar dataKey="count" name="Requests" fill="#1d4ed8" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption id="chart-caption" className="small muted">
        Requests per day in this period (UTC days).
      </figcaption>
      <details>
        <summary className="small">The figures as a table</summary>
        <table className="small">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
