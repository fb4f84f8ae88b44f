import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { maxTextLength } from './text.ts';

/** Per-post Slack options. Strict: a misspelt key is an error rather than an option ignored. */
export const slackOptionsSchema = z
  .strictObject({
    mrkdwn: z.boolean().optional().meta({
      description:
        'Send the message as Slack mrkdwn (*bold*, <https://example.com|links>, <@U123> mentions) as written. Default: plain text, with &, < and > escaped.',
    }),
    unfurlLinks: z
      .boolean()
      .optional()
      .meta({ description: "Show previews of the message's links. Default: Slack's own (text links only)." }),
    threadTs: z
      .string()
      .regex(/^\d{1,12}\.\d{1,9}$/, 'must be a Slack message timestamp such as 1712345678.123456')
      .optional()
      .meta({ description: 'Post as a reply in the thread of this message of the channel (its ts).' }),
    firstComment: firstCommentOption(maxTextLength),
  })
  .meta({ id: 'SlackOptions' });
export type SlackOptions = z.infer<typeof slackOptionsSchema>;

export const slackCredentialsSchema = z
  .object({
    botToken: z.string().min(1).meta({
      description:
        'The bot token (xoxb-…) of the Slack app installed in the workspace, with chat:write and files:write.',
    }),
    teamId: z.string().min(1).optional().meta({ description: 'The workspace (team) id, e.g. T0123456.' }),
    refreshToken: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'With token rotation on: the refresh token (xoxe-1-…) that renews botToken.' }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'With token rotation on: when botToken expires (ISO 8601 or epoch ms).' }),
  })
  .meta({ id: 'SlackCredentials' });
export type SlackCredentials = z.infer<typeof slackCredentialsSchema>;

/** Slack conversation ids: C… (channel), G… (older private channel), D… (direct message). */
export const channelIdPattern = /^[CGD][A-Z0-9]{6,20}$/;
