/** Google's `Date` and `TimeOfDay`, as a local post's `event.schedule` takes them. */
export interface GoogleDate {
  year: number;
  month: number;
  day: number;
}
export interface GoogleTime {
  hours: number;
  minutes: number;
  seconds: number;
  nanos: number;
}

/**
 * A date or time of the `event` option as Google's local date and time: a date or a local time is
 * taken as written (the location's own time); an instant is written in `timeZone`
 * (GOOGLE_BUSINESS_TIME_ZONE). Undefined for a value that is no date.
 */
export function localDateTime(
  value: string,
  timeZone: string,
): { date: GoogleDate; time?: GoogleTime } | undefined {
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/.exec(value);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    const date = { year: Number(y), month: Number(mo), day: Number(d) };
    if (!validDate(date)) return undefined;
    return h === undefined
      ? { date }
      : { date, time: { hours: Number(h), minutes: Number(mi), seconds: Number(s ?? 0), nanos: 0 } };
  }
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return undefined;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  );
  return {
    date: { year: parts.year!, month: parts.month!, day: parts.day! },
    time: { hours: parts.hour!, minutes: parts.minute!, seconds: parts.second!, nanos: 0 },
  };
}

function validDate({ year, month, day }: GoogleDate): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Comparable number for a local date and time (no zone: both ends are in the same one). */
export function sortKey(value: { date: GoogleDate; time?: GoogleTime }, endOfDay: boolean): number {
  const { year, month, day } = value.date;
  const t =
    value.time ??
    (endOfDay
      ? { hours: 23, minutes: 59, seconds: 59, nanos: 0 }
      : { hours: 0, minutes: 0, seconds: 0, nanos: 0 });
  return Date.UTC(year, month - 1, day, t.hours, t.minutes, t.seconds);
}
