/**
 * The queue's weekly slots as a week grid of days by times (issue 30): adding a time to a day,
 * removing one, copying a day's times to other days. Pure functions over rows, so the editor's
 * behaviour is tested without a browser (web/test/components/queue/week-slots.test.ts).
 */
export interface SlotRow {
  key: number;
  /** 1 = Monday … 7 = Sunday (ISO), as the queue API numbers them. */
  weekday: number;
  /** `HH:mm`. */
  time: string;
}

export const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

let nextKey = 1;
export const newKey = () => nextKey++;

/** Day by day, each day's times in order: the order the grid shows and the API is sent. */
export function sortedSlots(rows: SlotRow[]): SlotRow[] {
  return [...rows].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));
}

export function slotsOn(rows: SlotRow[], weekday: number): SlotRow[] {
  return sortedSlots(rows).filter((r) => r.weekday === weekday);
}

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A new time on `weekday`: an hour after its last one (09:00 on an empty day), never a duplicate. */
export function addTime(rows: SlotRow[], weekday: number): SlotRow[] {
  const day = slotsOn(rows, weekday);
  const taken = new Set(day.map((r) => r.time));
  let minutes = day.length ? Math.min(toMinutes(day.at(-1)!.time) + 60, 23 * 60 + 59) : 9 * 60;
  while (taken.has(toTime(minutes)) && minutes < 23 * 60 + 59) minutes++;
  if (taken.has(toTime(minutes))) return rows;
  return [...rows, { key: newKey(), weekday, time: toTime(minutes) }];
}

export function removeSlot(rows: SlotRow[], key: number): SlotRow[] {
  return rows.filter((r) => r.key !== key);
}

export function setTime(rows: SlotRow[], key: number, time: string): SlotRow[] {
  return rows.map((r) => (r.key === key ? { ...r, time } : r));
}

/** Which days "copy to" names: one day, the weekdays, the weekend or every day (the source excluded). */
export type CopyTarget = 'all' | 'weekdays' | 'weekend' | `${number}`;

export function targetDays(target: CopyTarget, from: number): number[] {
  const days =
    target === 'all'
      ? [1, 2, 3, 4, 5, 6, 7]
      : target === 'weekdays'
        ? [1, 2, 3, 4, 5]
        : target === 'weekend'
          ? [6, 7]
          : [Number(target)];
  return days.filter((d) => d !== from && d >= 1 && d <= 7);
}

/** The target days get exactly the source day's times (what they had is replaced). */
export function copyDay(rows: SlotRow[], from: number, target: CopyTarget): SlotRow[] {
  const days = targetDays(target, from);
  const source = slotsOn(rows, from);
  return [
    ...rows.filter((r) => !days.includes(r.weekday)),
    ...days.flatMap((weekday) => source.map((s) => ({ key: newKey(), weekday, time: s.time }))),
  ];
}
