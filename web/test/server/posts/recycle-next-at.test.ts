import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { rowsOf } from '#server/db/access.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/**
 * The time of a recycled copy (migration's `recycle_next_at`, the one place it is computed, inside
 * the transaction that finishes the post): `intervalDays` whole days after the posting, moved by a
 * whole number of minutes in [-jitter, +jitter], never before "now".
 */
const minute = 60_000;
const day = 24 * 60 * minute;

for (const backend of backends()) {
  describe(`recycle_next_at (${backend})`, () => {
    let harness: ServiceHarness;
    before(async () => {
      harness = await startServices(backend, {});
    });
    after(() => harness?.stop());

    const nextAt = async (base: Date, days: number, jitter: number, r: number, notBefore: Date) => {
      const result = await harness.ctx.db.execute(sql`
        SELECT recycle_next_at(${base.toISOString()}::timestamptz, ${days}::int, ${jitter}::int,
          ${r}::float8, ${notBefore.toISOString()}::timestamptz) AS at`);
      return new Date(String(rowsOf<{ at: unknown }>(result)[0]!.at)).getTime();
    };

    test('within interval ± jitter, on whole minutes, never before not_before', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.date({
            min: new Date('2020-01-01T00:00:00Z'),
            max: new Date('2035-01-01T00:00:00Z'),
            noInvalidDate: true,
          }),
          fc.integer({ min: 7, max: 365 }),
          fc.integer({ min: 0, max: 240 }),
          fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          fc.integer({ min: -400 * day, max: 400 * day }),
          async (base, days, jitter, r, offset) => {
            const notBefore = new Date(base.getTime() + offset);
            const at = await nextAt(base, days, jitter, r, notBefore);
            const centre = base.getTime() + days * day;
            const shift = at - centre;
            const drawn = Math.abs(shift) <= jitter * minute && Math.abs(shift % minute) === 0;
            if (at === notBefore.getTime()) {
              // Held back to not_before: only when the drawn time would have been earlier.
              assert.ok(notBefore.getTime() >= centre - jitter * minute);
            } else {
              assert.ok(drawn, `${shift} ms off`);
              assert.ok(at > notBefore.getTime());
            }
          },
        ),
        { numRuns: 150 },
      );
    });

    test('the jitter is uniform: r spreads evenly over every minute from -jitter to +jitter', async () => {
      const base = new Date('2027-03-28T00:30:00Z'); // across a daylight saving change in Europe
      const jitter = 3;
      const seen = new Map<number, number>();
      const steps = 70;
      for (let i = 0; i < steps; i++) {
        const at = await nextAt(base, 7, jitter, i / steps, new Date(0));
        const shift = (at - base.getTime() - 7 * day) / minute;
        seen.set(shift, (seen.get(shift) ?? 0) + 1);
      }
      assert.deepEqual(
        [...seen.keys()].sort((a, b) => a - b),
        [-3, -2, -1, 0, 1, 2, 3],
      );
      for (const count of seen.values()) assert.equal(count, steps / (2 * jitter + 1));
    });

    test('no jitter: exactly intervalDays × 24 h later', async () => {
      const base = new Date('2026-10-20T12:00:00Z');
      assert.equal(await nextAt(base, 30, 0, 0.999, new Date(0)), base.getTime() + 30 * day);
    });
  });
}
