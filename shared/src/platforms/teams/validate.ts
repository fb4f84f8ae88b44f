import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { maxCardBytes, messageBytes, teamsMessage } from './card.ts';
import { imageTypes, maxImages } from './limits.ts';
import type { TeamsOptions } from './options.ts';
import { parseTeamsWebhookUrl, teamsWebhookHint } from './webhook-url.ts';

/**
 * Checks a post before anything is sent. A Workflows webhook answers 202 before Teams looks at
 * the card, so a card Teams would refuse (over 28 KB) must be refused here or it is lost silently.
 */
export function validateTeamsPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: TeamsOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!parseTeamsWebhookUrl(account.credentials.webhookUrl)) {
    errors.push({
      code: 'credentials_invalid',
      message: `credentials.webhookUrl ${teamsWebhookHint}`,
      path: 'credentials',
    });
  }
  if (post.message.trim() === '' && media.length === 0 && !options.title) {
    errors.push({
      code: 'text_required',
      message: 'A Teams card needs text, a title or an image',
      path: 'message',
    });
  }
  const textBytes = messageBytes(teamsMessage(post.message, [], options));
  const cardBytes = messageBytes(teamsMessage(post.message, media.map(imageOf), options));
  if (textBytes > maxCardBytes) {
    errors.push({
      code: 'text_too_long',
      message: `The card would be ${textBytes} bytes; Teams accepts up to ${maxCardBytes} (about 28 KB)`,
      path: 'message',
    });
  } else if (cardBytes > maxCardBytes) {
    errors.push({
      code: 'card_too_large',
      message: `With its images the card would be ${cardBytes} bytes; Teams accepts up to ${maxCardBytes}: shorten the text or use fewer images`,
      path: 'media',
    });
  }
  if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `A Teams card here holds at most ${maxImages} images; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Teams cards show PNG, JPEG and GIF images; ${file.filename} is ${file.contentType}`,
        path: `media[${index}]`,
      });
    }
  });
  return { errors, warnings: mediaUrlWarnings(media, 'Microsoft Teams') };
}

export function imageOf(file: Pick<MediaInfo, 'url' | 'altText'>): { url: string; altText?: string } {
  return { url: file.url, ...(file.altText ? { altText: file.altText } : {}) };
}
