import { isCalendarDay } from '@postwave/shared/analytics/calendar-day';
import type { PostMetricName } from '@postwave/shared/analytics/metrics';

/** How each canonical metric is named on the pages (docs/analytics.md#metric-names). */
export const metricLabels: Record<PostMetricName, string> = {
  impressions: 'Impressions',
  reach: 'Reach',
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  reposts: 'Reposts',
  quotes: 'Quotes',
  shares: 'Shares',
  saves: 'Saves',
  clicks: 'Clicks',
};

/** By ISO weekday less one: best times count 1 (Monday) to 7 (Sunday), as the queue does. */
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** `3_600_000` → `1 h`, `259_200_000` → `3 d`: the largest unit that divides the offset evenly. */
export function formatOffset(ms: number): string {
  for (const [unit, size] of offsetUnits) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}
const offsetUnits: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/**
 * The post page's notes on a target's collection, from the configured schedule
 * (`ANALYTICS_COLLECT_AFTER`): the page must not promise collections the server will not make.
 */
export function collectionNotes(offsetsMs: readonly number[]): { collecting: string; done: string } {
  const times = offsetsMs.map(formatOffset);
  const last = times.at(-1) ?? '';
  const listed = times.length > 1 ? `${times.slice(0, -1).join(', ')} and ${last}` : last;
  return {
    collecting: `Collected about ${listed} after posting.`,
    done: `Final figures: collection ended ${last} after posting.`,
  };
}

export const formatCount = (value: number | undefined | null) =>
  value === undefined || value === null ? '—' : new Intl.NumberFormat('en').format(value);

/**
 * The page's words for a range the API refused (its detail names the `from` and `to` parameters,
 * which a person choosing dates in the form never sees).
 */
export function rangeProblem(from: string | undefined, to: string | undefined): string {
  // The same check as the API's: `2024-02-30` is no day (Date.parse would roll it over to March).
  if ((from && !isCalendarDay(from)) || (to && !isCalendarDay(to)))
    return 'Choose the days with the date fields: “From” and “To” are calendar days.';
  if (from && to && from > to)
    return 'The “From” day is after the “To” day: choose a “From” day on or before “To”.';
  return 'That range is too long: choose at most 366 days between “From” and “To”.';
}
