import { z } from 'zod';
import { commentAuthorTypes } from '#server/db/schema.ts';
import { validationFailed } from '#server/http/problems.ts';

/** A comment body is 1 to 5000 characters (after trimming); anything else is 422 naming `body`. */
export const maxCommentLength = 5000;

export const Comment = z
  .object({
    id: z.string(),
    author: z.object({
      type: z.enum(commentAuthorTypes),
      id: z
        .string()
        .optional()
        .meta({ description: 'The member; absent for a reviewer and a member who left.' }),
      name: z.string().meta({ description: 'The name as it was written (a reviewer types theirs).' }),
    }),
    body: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Comment' });
export type CommentView = z.infer<typeof Comment>;

export const CommentList = z.object({ comments: z.array(Comment) }).meta({ id: 'CommentList' });

/** Wrong types are 400 (readBody); a missing, empty or too long body is 422 (`commentBody`). */
export const CreateCommentRequest = z
  .object({
    body: z
      .string()
      .optional()
      .meta({ description: `1 to ${maxCommentLength} characters.` }),
  })
  .meta({ id: 'CreateCommentRequest' });

/** The trimmed body, or 422 `validation_failed` naming `body`. */
export function commentBody(body: string | undefined): string {
  const text = body?.trim() ?? '';
  const length = [...text].length;
  if (length === 0 || length > maxCommentLength)
    throw validationFailed(`body must be 1 to ${maxCommentLength} characters`, [
      {
        path: 'body',
        code: length === 0 ? 'required' : 'too_long',
        message:
          length === 0
            ? 'Write a comment'
            : `At most ${maxCommentLength} characters (this one has ${length})`,
      },
    ]);
  return text;
}
