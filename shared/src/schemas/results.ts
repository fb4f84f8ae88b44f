import { z } from 'zod';

export const TargetError = z
  .object({ code: z.string(), message: z.string(), retryable: z.boolean() })
  .meta({ id: 'TargetError' });

export const TargetResult = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    status: z.enum(['posted', 'failed']),
    platformPostId: z.string().optional(),
    url: z.string().optional(),
    error: TargetError.optional(),
  })
  .meta({ id: 'TargetResult', description: 'The outcome of publishing to one account.' });
export type TargetResult = z.infer<typeof TargetResult>;

/**
 * A target's result as the Scheduler stores it: `unknown` when a send was cut off (a crash) on a
 * platform that can neither dedupe a resend nor find the earlier post; a person decides.
 */
export const StoredTargetResult = TargetResult.extend({
  status: z.enum(['posted', 'failed', 'unknown']),
}).meta({
  id: 'StoredTargetResult',
  description:
    'The outcome of publishing to one account. `unknown`: the send was interrupted (the server stopped mid-publish) on a platform where it cannot be checked or safely repeated; it may or may not have been posted. Resolve it with `POST /api/v1/posts/{id}` `{ "resolveUnknown": "mark_posted" | "post_again" }`.',
});
export type StoredTargetResult = z.infer<typeof StoredTargetResult>;

export const PublishResponse = z
  .object({ status: z.enum(['posted', 'partial']), results: z.array(TargetResult) })
  .meta({ id: 'PublishResponse' });
export type PublishResponse = z.infer<typeof PublishResponse>;

export const ValidationIssue = z
  .object({ code: z.string(), message: z.string(), path: z.string().optional() })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const AccountValidation = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    valid: z.boolean(),
    errors: z.array(ValidationIssue),
    warnings: z.array(ValidationIssue),
  })
  .meta({ id: 'AccountValidation' });
export type AccountValidation = z.infer<typeof AccountValidation>;

export const ValidationResponse = z
  .object({ valid: z.boolean(), results: z.array(AccountValidation) })
  .meta({ id: 'ValidationResponse' });
export type ValidationResponse = z.infer<typeof ValidationResponse>;
