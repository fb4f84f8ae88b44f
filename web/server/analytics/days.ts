/** Today (YYYY-MM-DD) in a timezone; UTC when the zone is unknown. */
export function todayIn(timezone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** Every day from `from` to `to` included (YYYY-MM-DD). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += 86_400_000)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** A numeric SQL answer (bigint sums come back as strings) as a number, or undefined for null. */
export function num(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

const hourMs = 3_600_000;
const quarterMs = 900_000;
const floorTo = (at: number, unit: number) => Math.floor(at / unit) * unit;

/**
 * Which rollup rows make up the days that start at `starts` (ms; the last one ends the last day):
 * every hour from `hoursFrom` to `hoursTo` except `splitHours`, the hours a day starts within
 * (timezones on a :30 or :45 offset), of which the `quarters` in range are read instead. On a
 * whole-hour offset (DST included) there are no split hours: hours alone.
 */
export function rollupSpans(starts: readonly number[]): {
  hoursFrom: number;
  hoursTo: number;
  splitHours: number[];
  quarters: number[];
} {
  const start = starts[0]!;
  const end = starts[starts.length - 1]!;
  const splitHours = [
    ...new Set(starts.filter((at) => floorTo(at, hourMs) !== at).map((at) => floorTo(at, hourMs))),
  ];
  return {
    hoursFrom: floorTo(start + hourMs - 1, hourMs),
    hoursTo: floorTo(end, hourMs),
    splitHours,
    quarters: splitHours
      .flatMap((hour) => [0, 1, 2, 3].map((q) => hour + q * quarterMs))
      .filter((at) => at >= start && at < end),
  };
}
