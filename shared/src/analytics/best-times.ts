/*
 * Best times to post (contract section H): from an account's own posted targets, the hours of the
 * week ranked by the median engagement per post published in them. Medians, not means, so one
 * viral post does not make its hour "best".
 */

/** Fewer posted targets with figures than this: no suggestion (`insufficient_data`). */
export const bestTimesMinimumSample = 20;

export interface BestTimeSlot {
  /** 1 = Monday … 7 = Sunday (ISO, as the queue's slots), in the workspace's timezone. */
  weekday: number;
  hour: number;
  /** The median engagement per post published in this hour. */
  score: number;
  posts: number;
}

export interface BestTimesAnswer {
  sampleSize: number;
  slots: BestTimeSlot[];
  reason?: 'insufficient_data';
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Ranks hours of the week, best first (ties: more posts first, then earlier in the week). */
export function rankBestTimes(
  samples: readonly { weekday: number; hour: number; engagement: number }[],
  minimumSample = bestTimesMinimumSample,
): BestTimesAnswer {
  if (samples.length < minimumSample)
    return { sampleSize: samples.length, slots: [], reason: 'insufficient_data' };
  const bySlot = new Map<number, number[]>();
  for (const s of samples) {
    const key = s.weekday * 24 + s.hour;
    const list = bySlot.get(key);
    if (list) list.push(s.engagement);
    else bySlot.set(key, [s.engagement]);
  }
  const slots = [...bySlot].map(([key, values]) => ({
    weekday: Math.floor(key / 24),
    hour: key % 24,
    score: median(values),
    posts: values.length,
  }));
  slots.sort(
    (a, b) => b.score - a.score || b.posts - a.posts || a.weekday * 24 + a.hour - (b.weekday * 24 + b.hour),
  );
  return { sampleSize: samples.length, slots };
}
