import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { type DiscordConfig, maxAttachments, maxContentLength } from './config.ts';
import { parseWebhookUrl, webhookUrlHint } from './webhook-url.ts';

/** Checks a post against Discord's limits for webhook messages, before anything is sent. */
export function validateDiscordPost(
  config: DiscordConfig,
  post: PostContent,
  account: PlatformAccount,
  media: MediaInfo[],
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const webhookUrl = account.credentials.webhookUrl;
  if (typeof webhookUrl !== 'string' || !parseWebhookUrl(webhookUrl, config.apiUrl)) {
    errors.push({ code: 'credentials_invalid', message: `credentials.webhookUrl ${webhookUrlHint}` });
  }

  const length = codePointLength(post.message);
  if (length > maxContentLength) {
    errors.push({
      code: 'text_too_long',
      message: `Discord messages are limited to ${maxContentLength} characters; this one has ${length}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({
      code: 'empty_post',
      message: 'Discord needs a message or at least one file',
      path: 'message',
    });
  }

  if (media.length > maxAttachments) {
    errors.push({
      code: 'too_many_media',
      message: `Discord allows at most ${maxAttachments} files per message; this post has ${media.length}`,
      path: 'media',
    });
  }
  const { maxFileBytes, maxRequestBytes } = config.limits;
  media.forEach((file, index) => {
    if (file.size > maxFileBytes) {
      errors.push({
        code: 'media_too_large',
        message: `${file.filename} is ${file.size} bytes; Discord accepts files up to ${maxFileBytes} bytes here`,
        path: `media[${index}]`,
      });
    }
  });
  const total = media.reduce((sum, file) => sum + file.size, 0);
  if (total > maxRequestBytes && media.every((file) => file.size <= maxFileBytes)) {
    errors.push({
      code: 'media_too_large',
      message: `The files add up to ${total} bytes; Discord accepts up to ${maxRequestBytes} bytes per message`,
      path: 'media',
    });
  }
  return { errors, warnings: [] };
}
