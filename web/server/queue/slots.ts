import { TZDate, tzOffset } from '@date-fns/tz';

/** A weekly posting time: ISO weekday (1 = Monday … 7 = Sunday) and a `HH:MM` wall-clock time. */
export interface WeeklySlot {
  weekday: number;
  time: string;
}

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** `HH:MM` on the 24-hour clock. */
export const slotTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Offset from UTC in ms of an instant in a zone, from the tz database through `@date-fns/tz`. */
const offsetMs = (zone: string, instant: number) => tzOffset(zone, new Date(instant)) * minuteMs;

/**
 * The instant a wall-clock time (given as if it were UTC, `localMs`) happens in a zone.
 * - It happens once: that instant.
 * - It happens twice (the repeated hour when clocks fall back): the first, so the slot fires once.
 * - It never happens (the hour skipped when clocks spring forward): shifted forward by the gap,
 *   e.g. 02:30 becomes 03:30, so the slot still fires that day, as soon after its time as exists.
 * The library's own constructor is not used for this: its choice in the repeated hour varies by zone.
 */
export function wallTimeToInstant(localMs: number, zone: string): number {
  const before = offsetMs(zone, localMs - dayMs);
  const after = offsetMs(zone, localMs + dayMs);
  const candidates = [localMs - before, localMs - after]
    .filter((instant) => instant + offsetMs(zone, instant) === localMs)
    .sort((a, b) => a - b);
  return candidates[0] ?? localMs - before;
}

/** The local calendar day (as a UTC midnight) and ISO weekday of an instant in a zone. */
function localDay(instant: number, zone: string): { dayStart: number; weekday: number } {
  const local = new TZDate(instant, zone);
  const dayStart = Date.UTC(local.getFullYear(), local.getMonth(), local.getDate());
  return { dayStart, weekday: ((new Date(dayStart).getUTCDay() + 6) % 7) + 1 };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export interface SlotSearch {
  /** Only instants strictly after this one. */
  after: Date;
  /** How many local days to look ahead (default a year and a week). */
  days?: number;
}

/**
 * The queue's posting instants after `after`, earliest first, strictly increasing, for the next
 * `days` local days. Two slots that land on the same instant (a skipped 02:30 shifted onto a 03:30
 * slot) count once.
 */
export function* slotInstants(
  zone: string,
  slots: readonly WeeklySlot[],
  search: SlotSearch,
): Generator<Date> {
  if (slots.length === 0) return;
  const byWeekday = new Map<number, number[]>();
  for (const slot of slots) {
    const list = byWeekday.get(slot.weekday) ?? [];
    list.push(minutesOf(slot.time));
    byWeekday.set(slot.weekday, list);
  }
  const after = search.after.getTime();
  let last = after;
  const { dayStart: firstDay, weekday: firstWeekday } = localDay(after, zone);
  const days = search.days ?? 373;
  for (let d = 0; d <= days; d++) {
    const minutes = byWeekday.get(((firstWeekday - 1 + d) % 7) + 1);
    if (!minutes) continue;
    const dayStart = firstDay + d * dayMs;
    // Sorted per day: a skipped time shifted forward may pass a later slot of the same day.
    const instants = minutes
      .map((m) => wallTimeToInstant(dayStart + m * minuteMs, zone))
      .sort((a, b) => a - b);
    for (const instant of instants) {
      if (instant <= last) continue;
      last = instant;
      yield new Date(instant);
    }
  }
}

/**
 * The earliest instant after `after` that is a slot of every queue and free in each (not in its
 * `taken` set of epoch ms); undefined when there is none within the search window.
 */
export function firstCommonFreeSlot(
  queues: readonly { zone: string; slots: readonly WeeklySlot[]; taken: ReadonlySet<number> }[],
  search: SlotSearch,
): Date | undefined {
  const [first, ...rest] = queues;
  if (!first) return undefined;
  const others = rest.map((q) => ({
    taken: q.taken,
    instants: new Set(Array.from(slotInstants(q.zone, q.slots, search), (d) => d.getTime())),
  }));
  for (const instant of slotInstants(first.zone, first.slots, search)) {
    const t = instant.getTime();
    if (first.taken.has(t)) continue;
    if (others.every((q) => q.instants.has(t) && !q.taken.has(t))) return instant;
  }
  return undefined;
}
