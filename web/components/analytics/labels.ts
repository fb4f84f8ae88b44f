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

export const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export const formatCount = (value: number | undefined | null) =>
  value === undefined || value === null ? '—' : new Intl.NumberFormat('en').format(value);
