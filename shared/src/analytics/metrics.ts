import {
  type AccountMetricName,
  accountMetricNames,
  type PostMetricName,
  postMetricNames,
} from '../platforms/manifest.ts';

export type { AccountMetricName, PostMetricName };
export { accountMetricNames, postMetricNames };

/** The metrics that count as engagement (contract section H): what people did with a post. */
export const engagementMetricNames: readonly PostMetricName[] = [
  'likes',
  'comments',
  'reposts',
  'quotes',
  'shares',
  'saves',
  'clicks',
];

/**
 * likes + comments + reposts + quotes + shares + saves (+ clicks where known), from the metrics a
 * platform reported; undefined when it reported none of them (views alone are not engagement).
 */
export function engagementOf(metrics: Readonly<Partial<Record<string, number>>>): number | undefined {
  let total: number | undefined;
  for (const name of engagementMetricNames) {
    const value = metrics[name];
    if (typeof value === 'number' && Number.isFinite(value)) total = (total ?? 0) + value;
  }
  return total;
}

/** Keeps only canonical post metric names with whole, non-negative values. */
export function canonicalMetrics(
  metrics: Readonly<Record<string, unknown>>,
): Partial<Record<PostMetricName, number>> {
  const kept: Partial<Record<PostMetricName, number>> = {};
  for (const name of postMetricNames) {
    const value = metrics[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) kept[name] = value;
  }
  return kept;
}

/** When a posted target's figures are collected, after it posted (contract section H). */
export const defaultCollectionOffsetsMs: readonly number[] = [
  3_600_000,
  6 * 3_600_000,
  24 * 3_600_000,
  3 * 86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
];

/**
 * The schedule after a collection at `now` of a target posted at `postedAt`: the first offset
 * still ahead (a late collection skips the ones it already covers), or none: collection ends.
 */
export function nextCollection(
  postedAt: number,
  now: number,
  offsets: readonly number[] = defaultCollectionOffsetsMs,
): { step: number; at: number } | undefined {
  const step = offsets.findIndex((offset) => postedAt + offset > now);
  return step < 0 ? undefined : { step, at: postedAt + offsets[step]! };
}
