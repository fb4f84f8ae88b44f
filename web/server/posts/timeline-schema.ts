import { z } from 'zod';
import { postEventActors } from '#server/db/schema.ts';

/** One step of a post's life (contract section F, "Post timeline"; docs/dispatch.md#timeline). */
export const TimelineEvent = z
  .object({
    id: z.string(),
    at: z.string().meta({ description: 'When it happened (ISO 8601, UTC).' }),
    type: z.string().meta({
      description:
        "What happened: `created`, `updated`, `scheduled`, `moved_to_draft`, `staged`, `stage_failed`, `attempt` (one per platform call that can publish, with its `outcome`), `posted`, `failed`, `unknown` (a target whose outcome could not be known, beside its `attempt`), `resolved` (an unknown outcome settled by a person), `comment_posted` (a target's first comment went out), `preflight_failed`, `preflight_passed`, `recycle_scheduled` and `recycle_stopped` (evergreen recycling, with `recycle`), `submitted`, `approved`, `rejected` (approvals, with the comment in the decision); assistants also leave `created_draft`, `published`, `approval_requested`, `confirmation_declined`, `confirmation_cancelled`. `deleted` ends a deleted post's timeline, with who deleted it (`system` for a recycled copy that changed recycling settings removed): the timeline stays readable in the post's workspace while the post itself answers 404.",
    }),
    accountId: z.string().optional(),
    part: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The thread part an attempt sent: 0 is the message.' }),
    attempt: z.number().int().optional().meta({
      description:
        'Which try of this account it was, 1 first: a later dispatch and a call retried at once each take the next number; the parts of one try of a thread share it.',
    }),
    actor: z
      .object({ type: z.enum(postEventActors), id: z.string().optional(), name: z.string() })
      .optional()
      .meta({ description: 'Who acted, where known: `system` for what dispatch did.' }),
    outcome: z.enum(['posted', 'failed', 'unknown']).optional(),
    recycle: z
      .object({
        reason: z.string().optional().meta({
          description:
            'Why recycling stopped (`max_times`, `until`, `turned_off`, `not_posted`, `no_targets`), or left `accountId` out (`duplicate`, `account_unhealthy`, `account_removed`).',
        }),
        copyId: z.string().optional(),
        index: z.number().int().optional(),
        scheduledAt: z.string().optional(),
        fromPostId: z.string().optional(),
      })
      .optional()
      .meta({ description: 'On `recycle_scheduled` and `recycle_stopped` (docs/recycling.md).' }),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        hint: z.string().optional(),
        platformStatus: z.number().int().optional().meta({ description: "The platform's HTTP status." }),
      })
      .optional(),
  })
  .meta({ id: 'PostEvent' });
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const PostEvents = z.object({ events: z.array(TimelineEvent) }).meta({ id: 'PostEvents' });
