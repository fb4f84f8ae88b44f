import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import {
  castBytes,
  castLimit,
  maxCastBytes,
  maxEmbeds,
  maxEmbedUrlBytes,
  maxLongCastBytes,
} from './limits.ts';
import type { FarcasterOptions } from './options.ts';

/**
 * A cast's rules, checked before anything is sent: the text in UTF-8 bytes (320, or 1024 as a
 * long cast), at most 2 embeds, each our public media URL of at most 256 bytes (clients fetch
 * it, so a non-public URL is warned about). Browser-safe.
 */
export function validateFarcasterCast(
  post: PostContent,
  media: readonly MediaInfo[],
  options: FarcasterOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const limit = castLimit(options);
  const bytes = castBytes(post.message);
  if (bytes > limit) {
    errors.push({
      code: 'text_too_long',
      message:
        limit === maxCastBytes
          ? `A cast holds ${maxCastBytes} bytes (UTF-8); this one has ${bytes}. Set the longCast option for up to ${maxLongCastBytes} (Farcaster Pro).`
          : `A long cast holds ${maxLongCastBytes} bytes (UTF-8); this one has ${bytes}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'A cast needs text or media', path: 'message' });
  if (media.length > maxEmbeds) {
    errors.push({
      code: 'too_many_media',
      message: `A cast takes ${maxEmbeds} embeds; this one has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    if (castBytes(file.url) > maxEmbedUrlBytes) {
      errors.push({
        code: 'media_url_too_long',
        message: `Farcaster embeds take URLs of up to ${maxEmbedUrlBytes} bytes; this media URL has ${castBytes(file.url)}`,
        path: `media[${index}]`,
      });
    }
    if (file.kind === 'document') {
      errors.push({
        code: 'media_type_unsupported',
        message: 'Farcaster clients show images and videos embedded, not documents',
        path: `media[${index}]`,
      });
    }
  }
  return { errors, warnings: mediaUrlWarnings(media, 'Farcaster') };
}
