import { z } from 'zod';
import { codePointLength } from '../../text.ts';
import { firstCommentOption } from '../first-comment.ts';
import { maxContentWarningLength, misskeyVisibilities } from './limits.ts';

/** Per-post Misskey options; strict, so a misspelt `visibility` cannot make a private note public. */
export const misskeyOptionsSchema = z
  .strictObject({
    visibility: z.enum(misskeyVisibilities).optional().meta({
      description:
        'Who sees the note: `public` (default), `home` (public, not on the public timelines) or `followers`.',
    }),
    contentWarning: z
      .string()
      .trim()
      .min(1)
      // Counted as Misskey counts it (its schema's maxLength: code points, an emoji being one).
      .refine((cw) => codePointLength(cw) <= maxContentWarningLength, {
        message: `Too long: at most ${maxContentWarningLength} characters`,
      })
      .optional()
      .meta({
        description: `Content warning (\`cw\`) shown before the text; up to ${maxContentWarningLength} characters.`,
      }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'MisskeyOptions' });
export type MisskeyOptions = z.infer<typeof misskeyOptionsSchema>;

export const misskeyCredentialsSchema = z
  .object({
    instanceUrl: z
      .url({ protocol: /^https?$/ })
      .meta({ description: 'The account\'s server, e.g. "https://misskey.io".' }),
    accessToken: z.string().min(1).meta({
      description:
        'An access token with the "Compose or delete notes" (write:notes), "Access your Drive" (write:drive) and "View your account information" (read:account) permissions.',
    }),
  })
  .meta({ id: 'MisskeyCredentials' });
export type MisskeyCredentials = z.infer<typeof misskeyCredentialsSchema>;
