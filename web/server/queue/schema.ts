import type { QueueSettings, QueueView } from '@postwave/shared';
import { z } from 'zod';

// The queue's shapes are the SDK's (shared/src/schemas/queue.ts): the CLI reads them too.
export { QueueSettings, QueueSlot, QueueView } from '@postwave/shared';
export type QueueSettingsView = QueueSettings;
export type QueueViewShape = QueueView;

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
