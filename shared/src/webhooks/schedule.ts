/**
 * When a failed delivery is tried again (docs/webhooks.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h (about 33 hours of retries, three days counting slow receivers' windows); after the
 * last retry fails the delivery is marked failed.
 */
export const defaultWebhookRetrySchedule: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `"5s,5m,30m,2h"` → milliseconds; throws a message naming the bad entry. */
export function parseWebhookRetrySchedule(text: string): number[] {
  const steps = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (steps.length === 0) throw new Error('must list at least one delay, e.g. "5s,5m,30m"');
  return steps.map((step) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(step);
    if (!match) throw new Error(`"${step}" is not a delay like 500ms, 5s, 5m, 2h or 1d`);
    return Number(match[1]) * units[match[2]!]!;
  });
}

/** The delay before retry number `retry` (0-based), or undefined once the schedule is used up. */
export function retryDelay(schedule: readonly number[], retry: number): number | undefined {
  return schedule[retry];
}
