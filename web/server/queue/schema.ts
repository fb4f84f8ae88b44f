import { z } from 'zod';

/** One weekly posting time. Checked loosely here (400 on wrong types), exactly by the service (422 with paths). */
export const QueueSlot = z
  .object({
    weekday: z
      .number()
      .int()
      .meta({ description: 'ISO weekday: 1 = Monday … 7 = Sunday.', minimum: 1, maximum: 7 }),
    time: z.string().max(20).meta({ description: 'Wall-clock time `HH:MM` (24-hour) in the queue’s zone.' }),
  })
  .meta({ id: 'QueueSlot' });

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
export type QueueSettingsView = z.infer<typeof QueueSettings>;

/** A scheduled post of the account, in time order, with whether it sits on one of the queue's slots. */
export const QueuedPost = z.object({
  id: z.string(),
  message: z.string(),
  accountIds: z.array(z.string()),
  scheduledAt: z.string(),
  onSlot: z.boolean(),
});

export const QueueView = QueueSettings.extend({
  posts: z
    .array(QueuedPost)
    .meta({ description: 'Upcoming scheduled posts of the account, earliest first.' }),
  freeSlots: z.array(z.string()).meta({ description: 'The next free slots (up to 10), earliest first.' }),
}).meta({ id: 'QueueView' });
export type QueueViewShape = z.infer<typeof QueueView>;

export const queueMoves = ['up', 'down', 'next'] as const;
export type QueueMove = (typeof queueMoves)[number];

export const QueueMoveRequest = z
  .object({
    postId: z.string().max(100),
    move: z.enum(queueMoves).meta({
      description:
        '`up`/`down` swap the post’s time with the previous/next scheduled post of this account; `next` gives it the earliest time of the account’s upcoming posts, each post before it moving one place later.',
    }),
  })
  .meta({ id: 'QueueMoveRequest' });
