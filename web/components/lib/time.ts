/** Time-zone arithmetic with Intl only: browser-safe, used by server and client components. */

/**
 * The canonical IANA name of a time zone (`utc` → `UTC`, `europe/berlin` → `Europe/Berlin`), or
 * undefined when `value` is not one. Offsets such as `+01:00`, which Intl takes as UTC+1, are
 * refused: PostgreSQL reads the same text the POSIX way, as UTC−1, so a workspace's days would be
 * two hours apart between the database's sums and the pages.
 */
export function canonicalTimeZone(value: string): string | undefined {
  if (value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** True when `value` is an IANA time zone name (`canonicalTimeZone`). */
export const isTimeZone = (value: string): boolean => canonicalTimeZone(value) !== undefined;

export function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock fields of an instant in a time zone. */
export function zonedParts(date: Date, timeZone: string): Parts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

function offsetMs(date: Date, timeZone: string): number {
  const p = zonedParts(date, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/** A `YYYY-MM-DDTHH:mm` wall-clock time in a zone, as a UTC instant. */
export function zonedToUtc(local: string, timeZone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return undefined;
  const guess = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // Two passes settle the offset across a daylight-saving change.
  let instant = guess - offsetMs(new Date(guess), timeZone);
  instant = guess - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the `YYYY-MM-DDTHH:mm` value of a datetime-local input in a zone. */
export function utcToZonedInput(date: Date, timeZone: string): string {
  const p = zonedParts(date, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function zonedDay(date: Date, timeZone: string): string {
  const p = zonedParts(date, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/*
 * One way of writing time (issue 30): every date and time the app shows goes through the helpers
 * below, in the person's time zone (their profile's) and locale (the browser's Accept-Language, see
 * server/ui/locale.ts and components/lib/time-context.tsx). Nothing formats with the machine's zone.
 */

/** The locale when none is known (and in tests): day-month-year, 24-hour clock. */
export const fallbackLocale = 'en-GB';

const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale, options);
    } catch {
      format = new Intl.DateTimeFormat(fallbackLocale, options);
    }
    if (formats.size > 500) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/** "Wed, 25 Nov 2026, 14:30": the full form, for lists and details. */
export function formatDateTime(iso: string | Date, timeZone: string, locale = fallbackLocale): string {
  return formatter(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** "Wed, 25 Nov, 14:30": within the coming weeks (queue slots). */
export function formatSlot(iso: string | Date, timeZone: string, locale = fallbackLocale): string {
  return formatter(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** "Wednesday 25 November, 14:30": read out in announcements. */
export function formatSpoken(iso: string | Date, timeZone: string, locale = fallbackLocale): string {
  return formatter(locale, {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** "14:30". */
export function formatTime(iso: string | Date, timeZone: string, locale = fallbackLocale): string {
  return formatter(locale, { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** A calendar day (`YYYY-MM-DD`, no zone: it is already the person's day) in words. */
export function formatDay(
  day: string,
  style: 'full' | 'dayMonth' | 'monthYear' = 'full',
  locale = fallbackLocale,
): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'full'
      ? { dateStyle: 'full' }
      : style === 'dayMonth'
        ? { day: 'numeric', month: 'short' }
        : { month: 'long', year: 'numeric' };
  return formatter(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
}
