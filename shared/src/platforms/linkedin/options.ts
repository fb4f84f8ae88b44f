import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

export const linkedInOptionsSchema = z
  .strictObject({
    visibility: z.enum(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN']).optional().meta({
      description:
        'Who sees the post: "PUBLIC" (default), "CONNECTIONS" (members only: 1st-degree connections) or "LOGGED_IN" (signed-in LinkedIn members).',
    }),
    disableReshare: z
      .boolean()
      .optional()
      .meta({ description: 'Stops others from resharing the post. Default: false.' }),
    firstComment: firstCommentOption(1250),
  })
  .meta({ id: 'LinkedInOptions' });
export type LinkedInOptions = z.infer<typeof linkedInOptionsSchema>;

export const linkedInCredentialsSchema = z
  .object({
    accessToken: z.string().min(1),
    refreshToken: z.string().min(1).optional(),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
  })
  .meta({ id: 'LinkedInCredentials' });
export type LinkedInCredentials = z.infer<typeof linkedInCredentialsSchema>;

/** `urn:li:person:<id>` (a member) or `urn:li:organization:<number>` (a page). */
export const linkedInAuthorPattern = /^urn:li:(person:[A-Za-z0-9_-]+|organization:\d+)$/;
