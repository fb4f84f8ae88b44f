import { parseBody, parseOffsetDateTime } from '@postwave/shared';
import { recycleLimits } from '@postwave/shared/schemas/recycle-limits';
import { z } from 'zod';
import type { RecycleSettings } from '#server/db/schema.ts';
import { validationFailed } from '#server/http/problems.ts';

export { recycleLimits } from '@postwave/shared/schemas/recycle-limits';

const whole = (name: keyof typeof recycleLimits, description: string) =>
  z.number().int().min(recycleLimits[name].min).max(recycleLimits[name].max).meta({ description });

/** `recycle` on a post (docs/recycling.md): evergreen copies after it posts; `null` turns it off. */
export const Recycle = z
  .object({
    intervalDays: whole('intervalDays', 'Days between one posting and the next copy, 7–365.'),
    maxTimes: whole('maxTimes', 'How many copies at most, 1–52 (the original not counted).'),
    until: z
      .string()
      .optional()
      .meta({ format: 'date-time', description: 'No copy is scheduled after this time (in the future).' }),
    jitterMinutes: whole(
      'jitterMinutes',
      'Each copy moves by a random whole number of minutes in [-jitter, +jitter], 0–240 (default 0).',
    )
      .optional()
      .default(0),
  })
  .meta({ id: 'Recycle' });

export const RecycleField = Recycle.nullable().optional().meta({
  description:
    'Evergreen recycling: after the post posts, a copy is scheduled `intervalDays` later (± `jitterMinutes`), then again after each copy, until `maxTimes` or `until`. A target whose account is unhealthy, or whose platform refused the previous copy as a duplicate, is left out. `null` turns it off and removes the copies not yet published. See docs/recycling.md.',
});

/** `recycle` alone, so the shared body rule names its fields from the body (`recycle.maxTimes`). */
const RecycleBody = z.object({ recycle: Recycle });

/**
 * The `recycle` of a request body: undefined when absent, null to turn it off, else the settings.
 * A bad value names its field (`recycle.intervalDays`) under contract B's rule (`parseBody`): a
 * wrong type (`"weekly"`, `intervalDays: "7"`, a missing field) is 400, a value out of range 422.
 */
export function parseRecycle(body: unknown): RecycleSettings | null | undefined {
  if (typeof body !== 'object' || body === null || !('recycle' in body)) return undefined;
  const value = (body as { recycle: unknown }).recycle;
  if (value === null || value === undefined) return value as null | undefined;
  const { until, ...rest } = parseBody(RecycleBody, { recycle: value }).recycle;
  if (until === undefined) return rest;
  const when = parseOffsetDateTime(until);
  if (!when) {
    throw validationFailed('recycle.until must be an ISO 8601 date-time with an offset', [
      { path: 'recycle.until', code: 'invalid_datetime', message: 'Use e.g. 2027-06-01T00:00:00Z' },
    ]);
  }
  if (when.getTime() <= Date.now()) {
    throw validationFailed('recycle.until is in the past; choose a time in the future', [
      { path: 'recycle.until', code: 'until_in_past', message: 'Must be in the future' },
    ]);
  }
  return { ...rest, until: when.toISOString() };
}

/** Why a chain stopped, or left an account out, in words for the post page and e-mails. */
export const recycleStopReasons: Record<string, string> = {
  max_times: 'every copy it was allowed has been made (max times reached)',
  until: 'the next copy would fall after the “until” date',
  turned_off: 'recycling was turned off; copies not yet published were removed',
  not_posted: 'nothing of it reached a platform; publishing it again continues the chain',
  no_targets: 'no account was left to post the next copy to',
  duplicate: 'the platform refused the copy as a duplicate, so this account is left out from now on',
  account_unhealthy: 'the account needs reconnecting or cannot be reached, so it is left out of the copy',
  account_removed: 'the account was removed, so it is left out of the copy',
};

/** The body without `recycle` (read by parseRecycle), for the rest of the request's schema. */
export function withoutRecycle(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { recycle: _, ...rest } = body as Record<string, unknown>;
  return rest;
}
