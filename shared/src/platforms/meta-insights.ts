import type { MetricValues, PostMetricsResult } from './types.ts';

/*
 * Reading Graph insights answers, shared by Threads and Instagram (contract section H):
 * `{ data: [{ name, values: [{ value }] }] }` for media, `{ data: [{ name, total_value: { value } }] }`
 * for a profile's totals.
 */

interface InsightEntry {
  name?: unknown;
  values?: { value?: unknown }[];
  total_value?: { value?: unknown };
}
export interface InsightsAnswer {
  data?: InsightEntry[];
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** Each insight's value under our canonical name (`names`: the platform's name → ours); others ignored. */
export function insightValues(
  answer: InsightsAnswer | undefined,
  names: Readonly<Record<string, keyof MetricValues>>,
): MetricValues {
  const metrics: MetricValues = {};
  for (const entry of answer?.data ?? []) {
    const ours = typeof entry.name === 'string' ? names[entry.name] : undefined;
    if (!ours) continue;
    const value = count(entry.total_value?.value ?? entry.values?.at(-1)?.value);
    if (value !== undefined) metrics[ours] = value;
  }
  return metrics;
}

/** One insight's total (`total_value`, else its latest value), or undefined. */
export function insightTotal(answer: InsightsAnswer | undefined, name: string): number | undefined {
  const entry = answer?.data?.find((e) => e.name === name);
  return count(entry?.total_value?.value ?? entry?.values?.at(-1)?.value);
}

/**
 * Asks each target's figures one at a time (Graph insights are per object). A post Graph no
 * longer knows (code 100 / subcode 33, classified `target_unreachable`) is `gone`.
 */
export async function perPostMetrics(
  targets: readonly { platformPostId: string }[],
  read: (id: string) => Promise<MetricValues>,
  isGone: (error: unknown) => boolean,
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (const { platformPostId } of targets) {
    try {
      results.set(platformPostId, { state: 'ok', metrics: await read(platformPostId) });
    } catch (error) {
      if (isGone(error)) results.set(platformPostId, { state: 'gone' });
      else throw error;
    }
  }
  return results;
}
