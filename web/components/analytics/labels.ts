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
