import { schemaProblem } from '@postwave/shared';
import { z } from 'zod';
import { Comment } from '#server/comments/schema.ts';
import { validationFailed } from '#server/http/problems.ts';

export const CreateReviewLinkRequest = z
  .object({
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(720)
      .optional()
      .meta({ description: 'Default 168 (7 days), at most 720.' }),
    allowDecision: z.boolean().optional().meta({
      description:
        'Default true: the client may approve or request changes (else preview and comments only).',
    }),
  })
  .meta({ id: 'CreateReviewLinkRequest' });

export const CreatedReviewLink = z
  .object({
    id: z.string(),
    url: z
      .string()
      .meta({ description: '`…/review/pwr_…`: shown only in this answer (the token is stored hashed).' }),
    expiresAt: z.string(),
  })
  .meta({ id: 'CreatedReviewLink' });

export const ReviewLink = z
  .object({
    id: z.string(),
    allowDecision: z.boolean(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
    state: z.enum(['active', 'expired', 'revoked']),
  })
  .meta({ id: 'ReviewLink', description: 'A review link as listed: never its token or url.' });

export const ReviewLinkList = z.object({ links: z.array(ReviewLink) }).meta({ id: 'ReviewLinkList' });

/** The same Comment members see (one OpenAPI component): a reviewer's has `author.type` `reviewer`. */
export { Comment };

const ReviewVersion = z.object({
  account: z.object({
    id: z.string(),
    platform: z.string(),
    name: z.string(),
    username: z.string().optional(),
  }),
  message: z.string(),
  media: z.array(z.object({ url: z.string(), contentType: z.string(), altText: z.string().optional() })),
  thread: z.array(z.object({ message: z.string() })),
});

export const ReviewPost = z
  .object({
    id: z.string(),
    status: z.string(),
    scheduledAt: z.string().nullable(),
    requested: z.object({ postingMode: z.string(), scheduledAt: z.string().optional() }).nullable(),
    versions: z.array(ReviewVersion).meta({
      description: "One per account: that account's version (its override or the post), media and thread.",
    }),
  })
  .meta({
    id: 'ReviewPost',
    description:
      'What a client sees: the content per account. No results, ids of other posts or credentials.',
  });

export const ReviewPage = z
  .object({
    post: ReviewPost,
    comments: z.array(Comment),
    allowDecision: z.boolean(),
    canDecide: z.boolean().meta({ description: 'allowDecision and the post is `pending_approval`.' }),
    expiresAt: z.string(),
  })
  .meta({ id: 'ReviewPage' });

const Name = z.string().trim().min(1).max(100);

export const ReviewCommentRequest = z
  .object({ name: Name, body: z.string().trim().min(1).max(5000) })
  .meta({ id: 'ReviewCommentRequest' });

export const ReviewDecisionRequest = z
  .object({
    name: Name,
    decision: z.enum(['approve', 'reject']),
    comment: z.string().trim().max(5000).optional().meta({ description: 'Required to reject.' }),
  })
  .meta({ id: 'ReviewDecisionRequest' });

/**
 * The body checked against `schema`: a field of the wrong type is 400 (contract B, as everywhere);
 * a missing or bad value is 422 naming it, so the review page can point at the field.
 */
export function parseReviewBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const given = parsed.error.issues.filter((i) => i.input !== undefined);
  const wrongType = given.length > 0 ? schemaProblem(new z.ZodError(given)) : undefined;
  if (wrongType?.problem.status === 400) throw wrongType;
  const errors = parsed.error.issues.map((i) => ({
    path: i.path.join('.') || 'body',
    code: i.code === 'invalid_type' && i.input === undefined ? 'required' : 'invalid',
    message: i.message,
  }));
  throw validationFailed(`Check ${errors.map((e) => e.path).join(', ')}`, errors);
}
