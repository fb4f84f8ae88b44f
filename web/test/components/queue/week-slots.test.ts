import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addTime,
  copyDay,
  removeSlot,
  type SlotRow,
  slotsOn,
  sortedSlots,
  targetDays,
} from '../../../components/queue/week-slots.ts';

/** The queue editor's week grid (issue 30): add, remove and copy a day's times. */
const times = (rows: SlotRow[], day: number) => slotsOn(rows, day).map((r) => r.time);

test('adding a time puts 09:00 on an empty day, then an hour after the day’s last time', () => {
  let rows: SlotRow[] = [];
  rows = addTime(rows, 1);
  rows = addTime(rows, 1);
  rows = addTime(rows, 3);
  assert.deepEqual(times(rows, 1), ['09:00', '10:00']);
  assert.deepEqual(times(rows, 3), ['09:00']);
  assert.deepEqual(times(rows, 2), []);
  const late: SlotRow[] = [{ key: 1, weekday: 5, time: '23:30' }];
  assert.deepEqual(times(addTime(late, 5), 5), ['23:30', '23:59']);
});

test('removing takes out exactly one slot', () => {
  const rows: SlotRow[] = [
    { key: 1, weekday: 1, time: '09:00' },
    { key: 2, weekday: 1, time: '12:00' },
  ];
  assert.deepEqual(times(removeSlot(rows, 1), 1), ['12:00']);
});

test('copying a day gives the target days exactly its times, replacing theirs', () => {
  const rows: SlotRow[] = [
    { key: 1, weekday: 1, time: '12:00' },
    { key: 2, weekday: 1, time: '09:00' },
    { key: 3, weekday: 2, time: '18:00' },
    { key: 4, weekday: 6, time: '10:00' },
  ];
  const weekdays = copyDay(rows, 1, 'weekdays');
  for (const day of [1, 2, 3, 4, 5]) assert.deepEqual(times(weekdays, day), ['09:00', '12:00']);
  assert.deepEqual(times(weekdays, 6), ['10:00'], 'the weekend is left alone');
  assert.deepEqual(times(copyDay(rows, 6, '7'), 7), ['10:00']);
  assert.deepEqual(targetDays('all', 3), [1, 2, 4, 5, 6, 7]);
  assert.deepEqual(targetDays('weekend', 6), [7]);
  // Sent to the API in day and time order.
  assert.deepEqual(
    sortedSlots(rows).map((r) => `${r.weekday} ${r.time}`),
    ['1 09:00', '1 12:00', '2 18:00', '6 10:00'],
  );
});
