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
