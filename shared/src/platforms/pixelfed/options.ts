import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { pixelfedVisibilities } from './limits.ts';

/** Per-post Pixelfed options; strict, so a misspelt `visibility` cannot publish a private post publicly. */
export const pixelfedOptionsSchema = z
  .strictObject({
    visibility: z.enum(pixelfedVisibilities).optional().meta({
      description:
        "Who sees the post: `public`, `unlisted` or `private` (followers). Default: the account's own default.",
    }),
    spoilerText: z.string().optional().meta({ description: 'Content warning shown before the photos.' }),
    sensitive: z.boolean().optional().meta({ description: 'Hide the media behind a click.' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'PixelfedOptions' });
export type PixelfedOptions = z.infer<typeof pixelfedOptionsSchema>;

export const pixelfedCredentialsSchema = z
  .object({
    instanceUrl: z
      .url({ protocol: /^https?$/ })
      .meta({ description: 'The account\'s server, e.g. "https://pixelfed.social".' }),
    accessToken: z.string().min(1).meta({
      description: 'A personal access token (Settings → Applications) with the read and write scopes.',
    }),
  })
  .meta({ id: 'PixelfedCredentials' });
export type PixelfedCredentials = z.infer<typeof pixelfedCredentialsSchema>;
