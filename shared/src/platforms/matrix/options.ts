import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

/** Per-post Matrix options. Strict: a misspelt key is an error rather than an option ignored. */
export const matrixOptionsSchema = z
  .strictObject({
    notice: z.boolean().optional().meta({
      description:
        'Send the text as m.notice, as bots do (clients show it subdued; other bots do not answer it). Default: m.text.',
    }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'MatrixOptions' });
export type MatrixOptions = z.infer<typeof matrixOptionsSchema>;

export const matrixCredentialsSchema = z
  .object({
    homeserverUrl: z.url({ protocol: /^https?$/ }).meta({
      description:
        'The homeserver, e.g. "https://matrix.example.org" (a server name with .well-known/matrix/client delegation works too).',
    }),
    accessToken: z
      .string()
      .min(1)
      .meta({ description: "An access token of the account that posts (a bot's, or the user's)." }),
  })
  .meta({ id: 'MatrixCredentials' });
export type MatrixCredentials = z.infer<typeof matrixCredentialsSchema>;

/** A room id (`!opaque:server`, or a v12 `!hash`) or alias (`#name:server`). */
export const roomPattern = /^!\S+$|^#\S+:\S+$/;
