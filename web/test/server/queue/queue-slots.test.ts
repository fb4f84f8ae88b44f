import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TZDate } from '@date-fns/tz';
import fc from 'fast-check';
import { planMove } from '#server/queue/service.ts';
import { firstCommonFreeSlot, slotInstants, wallTimeToInstant } from '#server/queue/slots.ts';

const iso = (d: Date) => d.toISOString();
const take = (it: Iterable<Date>, n: number) => {
  const out: Date[] = [];
  for (const d of it) {
    out.push(d);
    if (out.length === n) break;
  }
  return out;
};
const wall = (local: string, zone: string) => new Date(wallTimeToInstant(Date.parse(`${local}Z`), zone));

describe('queue slots across daylight-saving changes', () => {
  test('Europe/Berlin spring forward: 02:30 does not exist on 29 March 2026 and fires at 03:30 CEST', () => {
    assert.equal(iso(wall('2026-03-29T02:30:00', 'Europe/Berlin')), '2026-03-29T01:30:00.000Z');
    const sundays = take(
      slotInstants('Europe/Berlin', [{ weekday: 7, time: '02:30' }], {
        after: new Date('2026-03-21T00:00:00Z'),
      }),
      3,
    );
    assert.deepEqual(sundays.map(iso), [
      '2026-03-22T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:30:00.000Z', // skipped hour: 03:30 CEST
      '2026-04-05T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  test('Europe/Berlin fall back: 02:30 happens twice on 25 October 2026 and the slot fires once, at the first', () => {
    const sundays = take(
      slotInstants('Europe/Berlin', [{ weekday: 7, time: '02:30' }], {
        after: new Date('2026-10-17T00:00:00Z'),
      }),
      3,
    );
    assert.deepEqual(sundays.map(iso), [
      '2026-10-18T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, not also 02:30 CET an hour later
      '2026-11-01T01:30:00.000Z',
    ]);
  });

  test('America/New_York: 02:30 skipped on 8 March, 01:30 repeated on 1 November 2026', () => {
    assert.equal(iso(wall('2026-03-08T02:30:00', 'America/New_York')), '2026-03-08T07:30:00.000Z');
    const daily = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '01:30' }));
    const around = take(
      slotInstants('America/New_York', daily, { after: new Date('2026-10-31T00:00:00Z') }),
      3,
    );
    assert.deepEqual(around.map(iso), [
      '2026-10-31T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, first of two
      '2026-11-02T06:30:00.000Z', // 01:30 EST
    ]);
  });

  test('a skipped slot shifted past a later slot of the same day stays in order and counts once', () => {
    const slots = [
      { weekday: 7, time: '02:30' },
      { weekday: 7, time: '03:15' },
      { weekday: 7, time: '03:30' },
    ];
    const day = take(slotInstants('Europe/Berlin', slots, { after: new Date('2026-03-28T12:00:00Z') }), 2);
    assert.deepEqual(day.map(iso), ['2026-03-29T01:15:00.000Z', '2026-03-29T01:30:00.000Z']);
  });

  test('a 30-minute change (Australia/Lord_Howe) shifts a skipped slot by 30 minutes', () => {
    assert.equal(iso(wall('2026-10-04T02:15:00', 'Australia/Lord_Howe')), '2026-10-03T15:45:00.000Z');
  });

  test('the common free slot of several queues skips taken and unshared times', () => {
    const after = new Date('2026-06-01T00:00:00Z'); // a Monday
    const berlin = {
      zone: 'Europe/Berlin',
      slots: [
        { weekday: 1, time: '09:00' },
        { weekday: 1, time: '11:00' },
      ],
    };
    const london = {
      zone: 'Europe/London',
      slots: [
        { weekday: 1, time: '10:00' },
        { weekday: 1, time: '08:00' },
      ],
    };
    const nineBerlin = Date.parse('2026-06-01T07:00:00Z');
    assert.equal(
      iso(
        firstCommonFreeSlot(
          [
            { ...berlin, taken: new Set() },
            { ...london, taken: new Set() },
          ],
          { after },
        )!,
      ),
      '2026-06-01T07:00:00.000Z',
    );
    assert.equal(
      iso(
        firstCommonFreeSlot(
          [
            { ...berlin, taken: new Set([nineBerlin]) },
            { ...london, taken: new Set() },
          ],
          { after },
        )!,
      ),
      '2026-06-01T09:00:00.000Z',
    );
    const apart = { zone: 'Europe/Berlin', slots: [{ weekday: 2, time: '09:00' }] };
    assert.equal(
      firstCommonFreeSlot(
        [
          { ...berlin, taken: new Set() },
          { ...apart, taken: new Set() },
        ],
        { after },
      ),
      undefined,
    );
  });
});

describe('queue reordering plans', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 5, 1, h));
  const list = [
    { id: 'a', scheduledAt: at(9) },
    { id: 'b', scheduledAt: at(10) },
    { id: 'c', scheduledAt: at(11) },
  ];
  test('up and down swap times with the neighbour; the ends do nothing', () => {
    assert.deepEqual(planMove(list, 1, 'up', undefined), [
      { postId: 'b', at: at(9) },
      { postId: 'a', at: at(10) },
    ]);
    assert.deepEqual(planMove(list, 2, 'down', undefined), []);
    assert.deepEqual(planMove(list, 0, 'up', undefined), []);
  });
  test('next rotates the post to the front, or takes an earlier free slot', () => {
    assert.deepEqual(planMove(list, 2, 'next', undefined), [
      { postId: 'c', at: at(9) },
      { postId: 'a', at: at(10) },
      { postId: 'b', at: at(11) },
    ]);
    assert.deepEqual(planMove(list, 2, 'next', at(8)), [{ postId: 'c', at: at(8) }]);
    assert.deepEqual(planMove(list, 0, 'next', at(12)), []);
  });
});

describe('queue slot properties', () => {
  const zones = [
    'UTC',
    'Europe/Berlin',
    'Europe/London',
    'America/New_York',
    'America/Sao_Paulo',
    'America/Santiago',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'Pacific/Chatham',
  ];
  const slot = fc.record({
    weekday: fc.integer({ min: 1, max: 7 }),
    time: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  });
  const now = fc.date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2037-12-31T00:00:00Z'),
    noInvalidDate: true,
  });

  test('never before now, strictly increasing, on a requested weekday, at the requested wall time when it exists', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(slot, { minLength: 1, maxLength: 8 }),
        now,
        (zone, slots, after) => {
          const instants = take(slotInstants(zone, slots, { after, days: 60 }), 40);
          assert.ok(instants.length > 0);
          let previous = after.getTime();
          for (const instant of instants) {
            assert.ok(instant.getTime() > previous, 'strictly after now and after the one before');
            previous = instant.getTime();
            const local = new TZDate(instant.getTime(), zone);
            const weekday = ((local.getDay() + 6) % 7) + 1;
            const time = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
            const exact = slots.some((s) => s.weekday === weekday && s.time === time);
            if (!exact) {
              // Only a slot whose wall time was skipped by a clock change may land elsewhere: at the
              // first moment after the gap, later the same day, at most a few hours on.
              const shifted = slots.some((s) => {
                if (s.weekday !== weekday) return false;
                const wanted = Date.UTC(
                  local.getFullYear(),
                  local.getMonth(),
                  local.getDate(),
                  Number(s.time.slice(0, 2)),
                  Number(s.time.slice(3)),
                );
                const back = new Date(wallTimeToInstant(wanted, zone));
                const backLocal = new TZDate(back.getTime(), zone);
                const skipped =
                  backLocal.getHours() * 60 + backLocal.getMinutes() !==
                  Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3));
                return skipped && back.getTime() === instant.getTime();
              });
              assert.ok(
                shifted,
                `${instant.toISOString()} in ${zone} is ${weekday} ${time}, not a requested slot`,
              );
            }
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });

  test('every requested wall time that exists in the next weeks is produced, once', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), slot, now, (zone, s, after) => {
        const instants = take(slotInstants(zone, [s], { after, days: 28 }), 10);
        // One slot a week: four (or five) per 28 days, each on a distinct local day.
        const days = new Set(instants.map((d) => new TZDate(d.getTime(), zone).toDateString()));
        assert.equal(days.size, instants.length);
        assert.ok(instants.length >= 3 && instants.length <= 5);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });
});
