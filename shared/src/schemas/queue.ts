import { z } from 'zod';

/**
 * An account's posting queue on the Scheduler (GET/PUT /api/v1/accounts/{id}/queue), declared
 * here because the web app and the CLI both read it.
 */

/**
 * One weekly posting time. Checked loosely here (400 on wrong types), exactly by the service (422
 * with paths): a fractional weekday is a number of the right type but a value outside 1-7, so it is
 * left to the service to report beside the slots' other mistakes rather than refused here as 400.
 */
export const QueueSlot = z
  .object({
    weekday: z
      .number()
      // Declared an integer (what a client must send); checked as one by the service, with 422.
      .meta({
        description: 'ISO weekday: 1 = Monday … 7 = Sunday.',
        type: 'integer',
        minimum: 1,
        maximum: 7,
      }),
    time: z.string().max(20).meta({ description: 'Wall-clock time `HH:MM` (24-hour) in the queue’s zone.' }),
  })
  .meta({ id: 'QueueSlot' });
export type QueueSlot = z.infer<typeof QueueSlot>;

export const QueueSettings = z
  .object({
    timezone: z.string().max(100).meta({ description: 'IANA zone, e.g. `Europe/Berlin`.' }),
    slots: z.array(QueueSlot).max(200),
  })
  .meta({
    id: 'QueueSettings',
    description:
      'An account’s posting slots. The answer lists slots sorted by weekday and time, duplicates removed. An account without a queue answers the user’s zone and no slots.',
  });
export type QueueSettings = z.infer<typeof QueueSettings>;

/** A scheduled post of the account, in time order, with whether it sits on one of the queue's slots. */
export const QueuedPost = z.object({
  id: z.string(),
  message: z.string(),
  accountIds: z.array(z.string()),
  scheduledAt: z.string(),
  onSlot: z.boolean(),
});
export type QueuedPost = z.infer<typeof QueuedPost>;

export const QueueView = QueueSettings.extend({
  posts: z
    .array(QueuedPost)
    .meta({ description: 'Upcoming scheduled posts of the account, earliest first.' }),
  freeSlots: z.array(z.string()).meta({ description: 'The next free slots (up to 10), earliest first.' }),
}).meta({ id: 'QueueView' });
export type QueueView = z.infer<typeof QueueView>;
