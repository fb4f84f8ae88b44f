import { parseBody } from '@postwave/shared';
import { z } from 'zod';
import { validationFailed } from '#server/http/problems.ts';
import { parseScheduledAt } from '#server/posts/schema.ts';
import type { ApproveInput } from './approve-post.ts';

export const ApproveRequest = z
  .object({
    comment: z.string().trim().max(5000).optional(),
    scheduledAt: z.string().optional().meta({
      description:
        'ISO 8601 with offset. For a requested schedule: a new time (required once the requested one has passed). For a requested queue: the earliest slot wanted. For a request to publish now: schedules the post for this time instead.',
    }),
  })
  .meta({ id: 'ApproveRequest' });

export const RejectRequest = z
  .object({
    comment: z.string().meta({ description: 'Required: what the author should change (1–5000 characters).' }),
  })
  .meta({ id: 'RejectRequest' });

/**
 * The approve body (empty is fine). Contract B: a field of the wrong type (`{"comment": 5}`) or a
 * body that is not an object is 400 `invalid_request`; a well-typed value that breaks a rule (a
 * comment over 5000 characters, a `scheduledAt` that is not a date-time with an offset) is 422.
 */
export function parseApprove(body: unknown): ApproveInput {
  const parsed = parseBody(ApproveRequest, body ?? {});
  return {
    comment: parsed.comment || undefined,
    scheduledAt: parsed.scheduledAt ? parseScheduledAt(parsed.scheduledAt) : undefined,
  };
}

/** The reject body's shape only: whether the comment says enough is `requiredComment`'s rule. */
const RejectShape = z.object({ comment: z.string().optional() });

/**
 * A decision's comment, required to reject. A comment of the wrong type (or a body that is not an
 * object) is 400 `invalid_request` (contract B); a missing, blank or too long one is 422 naming
 * `comment` (docs/workspaces.md#approvals: the body is well formed, what it says is not enough).
 */
export function requiredComment(body: unknown): string {
  const text = parseBody(RejectShape, body ?? {}).comment?.trim() ?? '';
  if (!text || text.length > 5000) {
    throw validationFailed('A rejection needs a comment saying what to change', [
      { path: 'comment', code: text ? 'too_long' : 'required', message: 'Write 1 to 5000 characters' },
    ]);
  }
  return text;
}
