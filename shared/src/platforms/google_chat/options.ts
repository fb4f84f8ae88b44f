import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { chatWebhookHint, parseChatWebhookUrl } from './webhook-url.ts';

/** Per-post Google Chat options. Strict: a misspelt key is an error rather than an option ignored. */
export const googleChatOptionsSchema = z
  .strictObject({
    threadKey: z.string().trim().min(1).max(4000).optional().meta({
      description:
        'Posts with the same key go into one thread of the space (thread.threadKey with messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD).',
    }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'GoogleChatOptions' });
export type GoogleChatOptions = z.infer<typeof googleChatOptionsSchema>;

export const googleChatCredentialsSchema = z
  .object({
    webhookUrl: z
      .string()
      .refine((url) => parseChatWebhookUrl(url) !== undefined, { message: chatWebhookHint })
      .meta({
        description:
          "The space's incoming webhook URL (with its key and token). It is the credential: keep it secret.",
      }),
  })
  .meta({ id: 'GoogleChatCredentials' });
export type GoogleChatCredentials = z.infer<typeof googleChatCredentialsSchema>;
