import { z } from 'zod';
import { validationFailed } from '#server/http/problems.ts';
import { parseScheduledAt } from '#server/posts/schema.ts';
import type { ApproveInput } from './approve-post.ts';

export const ApproveRequest = z
  .object({
    comment: z.string().trim().max(5000).optional(),
    scheduledAt: z.string().optional().meta({
      description:
        'ISO 8601 with offset. For a requested schedule: a new time (required once the requested one has passed). For a requested queue: the earliest slot wanted.',
    }),
  })
  .meta({ id: 'ApproveRequest' });

export const RejectRequest = z
  .object({
    comment: z.string().meta({ description: 'Required: what the author should change (1–5000 characters).' }),
  })
  .meta({ id: 'RejectRequest' });

const issueOf = (error: z.ZodError) => {
  const first = error.issues[0];
  const path = first?.path.join('.') || 'body';
  return { path, code: 'invalid', message: first?.message ?? 'Invalid' };
};

/** The approve body (empty is fine); a bad field is 422 naming it. */
export function parseApprove(body: unknown): ApproveInput {
  const parsed = ApproveRequest.safeParse(body ?? {});
  if (!parsed.success) throw validationFailed('The approval is not valid', [issueOf(parsed.error)]);
  return {
    comment: parsed.data.comment || undefined,
    scheduledAt: parsed.data.scheduledAt ? parseScheduledAt(parsed.data.scheduledAt) : undefined,
  };
}

/** A decision's comment, required to reject: missing or blank is 422 naming `comment`. */
export function requiredComment(body: unknown): string {
  const comment = (body as { comment?: unknown } | null)?.comment;
  const text = typeof comment === 'string' ? comment.trim() : '';
  if (!text || text.length > 5000) {
    throw validationFailed('A rejection needs a comment saying what to change', [
      { path: 'comment', code: text ? 'too_long' : 'required', message: 'Write 1 to 5000 characters' },
    ]);
  }
  return text;
}
