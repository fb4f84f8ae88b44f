'use client';

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCount } from './labels.ts';

export interface DayPoint {
  date: string;
  posts: number;
  /** Absent when no target of the day reported figures. */
  engagement?: number | undefined;
}

/**
 * Posts (bars) and engagement (line) per day, drawn with recharts. The drawing is hidden from
 * assistive technology; the same figures follow as a table for screen readers (docs/web-ui.md).
 */
export function DailyChart({ days, title }: { days: DayPoint[]; title: string }) {
  return (
    <figure className="chart" aria-labelledby="daily-chart-title">
      <figcaption id="daily-chart-title" className="chart-title">
        {title}
      </figcaption>
      {/* inert: nothing in the drawing takes focus or is read; the table below carries the figures. */}
      <div className="chart-area" aria-hidden="true" inert data-testid="daily-chart">
        <ResponsiveContainer width="100%" height={240}>
          <ComposedChart
            accessibilityLayer={false}
            data={days}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} />
            <YAxis yAxisId="posts" allowDecimals={false} fontSize={12} width={32} />
            <YAxis yAxisId="engagement" orientation="right" allowDecimals={false} fontSize={12} width={40} />
            <Tooltip />
            <Legend verticalAlign="top" height={28} iconSize={10} wrapperStyle={{ fontSize: 12 }} />
            <Bar
              yAxisId="posts"
              dataKey="posts"
              name="Posts"
              fill="var(--accent)"
              isAnimationActive={false}
            />
            <Line
              yAxisId="engagement"
              dataKey="engagement"
              name="Engagement"
              stroke="var(--text)"
              // Dots: a day with figures between days without any is a line of one point, drawn only as its dot.
              dot={{ r: 3, fill: 'var(--text)' }}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only" data-testid="daily-chart-data">
        <caption>{title}, as a table</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Posts</th>
            <th scope="col">Engagement</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{formatCount(d.posts)}</td>
              <td>{formatCount(d.engagement)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
