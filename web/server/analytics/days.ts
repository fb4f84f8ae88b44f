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
