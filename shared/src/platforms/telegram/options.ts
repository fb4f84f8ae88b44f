import { z } from 'zod';

/**
 * Per-post Telegram options. Strict: an unknown key is an error rather than silently
 * ignored, because a misspelt `protectContent` would otherwise publish unprotected.
 */
export const telegramOptionsSchema = z
  .strictObject({
    disableNotification: z.boolean().optional().meta({ description: 'Deliver silently.' }),
    protectContent: z.boolean().optional().meta({ description: 'Forbid forwarding and saving.' }),
    linkPreview: z
      .boolean()
      .optional()
      .meta({ description: 'Show a preview of the first link (text-only posts). Default: on.' }),
    messageThreadId: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: 'Topic (forum thread) to post into, in forum supergroups.' }),
    parseMode: z
      .enum(['HTML', 'MarkdownV2'])
      .optional()
      .meta({ description: 'Formatting of the message. Default: plain text.' }),
  })
  .meta({ id: 'TelegramOptions' });
export type TelegramOptions = z.infer<typeof telegramOptionsSchema>;

/** `123456:ABC-DEF...` as BotFather issues it; the shape also keeps the token safe inside a URL path. */
export const botTokenPattern = /^\d+:[A-Za-z0-9_-]+$/;

export const telegramCredentialsSchema = z
  .object({
    botToken: z
      .string()
      .regex(botTokenPattern, 'must be a bot token as BotFather issues it, e.g. 123456:ABC-DEF...'),
  })
  .meta({ id: 'TelegramCredentials' });
export type TelegramCredentials = z.infer<typeof telegramCredentialsSchema>;
