import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { imageTypes, maxImages } from './limits.ts';
import { imageCards, maxMessageBytes, messageBytes, textBytes } from './message.ts';
import { chatWebhookHint, parseChatWebhookUrl } from './webhook-url.ts';

/** Checks a post against Google Chat's limits for webhook messages, before anything is sent. */
export function validateGoogleChatPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!parseChatWebhookUrl(account.credentials.webhookUrl)) {
    errors.push({
      code: 'credentials_invalid',
      message: `credentials.webhookUrl ${chatWebhookHint}`,
      path: 'credentials',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({
      code: 'text_required',
      message: 'A Google Chat message needs text or an image',
      path: 'message',
    });
  }
  const text = textBytes(post.message);
  const total = messageBytes(post.message, imageCards(media.map(imageOf)));
  if (text > maxMessageBytes) {
    errors.push({
      code: 'text_too_long',
      message: `Google Chat messages are limited to ${maxMessageBytes} bytes; this text is ${text} bytes (UTF-8)`,
      path: 'message',
    });
  } else if (total > maxMessageBytes) {
    errors.push({
      code: 'message_too_large',
      message: `With its image card the message would be ${total} bytes; Google Chat accepts up to ${maxMessageBytes}`,
      path: 'media',
    });
  }
  if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `A Google Chat message here holds at most ${maxImages} images; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Google Chat cards show PNG, JPEG and GIF images; ${file.filename} is ${file.contentType}`,
        path: `media[${index}]`,
      });
    }
  });
  return { errors, warnings: mediaUrlWarnings(media, 'Google Chat') };
}

export function imageOf(file: Pick<MediaInfo, 'url' | 'altText'>): { url: string; altText?: string } {
  return { url: file.url, ...(file.altText ? { altText: file.altText } : {}) };
}
