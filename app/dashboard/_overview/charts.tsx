'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card } from '@/components/ui/card';
import styles from './overview.module.css';

/** One day of one chart, already in display units (major units of money, tickets). */
export interface ChartPoint {
  day: string;
  value: number;
}

export interface ChartSpec {
  id: string;
  title: string;
  /** What a value is, for the tooltip and the table's header ("EUR", "Tickets"). */
  unit: string;
  points: ChartPoint[];
}

const shortDay = (day: string) => day.slice(5);

/**
 * Daily bars for each chart. A chart is a picture for sighted staff: its figure is named, and the same
 * numbers are in a table under "Figures by day" for screen readers and for copying.
 */
export function OverviewCharts({ charts }: { charts: ChartSpec[] }) {
  return (
    <div className={styles.charts}>
      {charts.map((c) => (
        <Card key={c.id}>
          <figure className={styles.chart} aria-labelledby={`${c.id}-title`} data-testid={`chart-${c.id}`}>
            <figcaption id={`${c.id}-title`}>{c.title}</figcaption>
            <div className={styles.chartBox} aria-hidden="true">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={c.points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="day" tickFormatter={shortDay} fontSize={12} minTickGap={12} />
                  <YAxis fontSize={12} width={56} allowDecimals={c.unit !== 'Tickets'} />
                  <Tooltip formatter={(v) => [`${String(v)} ${c.unit}`, c.title]} />
                  <Bar dataKey="value" fill="#4f46e5" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
            <details>
              <summary>Figures by day</summary>
              <table className="table" aria-label={`${c.title} by day`}>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col" className="num">
                      {c.unit}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.points
                    .filter((p) => p.value !== 0)
                    .map((p) => (
                      <tr key={p.day}>
                        <td>{p.day}</td>
                        <td className="num">{p.value}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </details>
          </figure>
        </Card>
      ))}
    </div>
  );
}
