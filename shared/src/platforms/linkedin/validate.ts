import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import {
  imageTypes,
  linkedInTextLength,
  maxCommentaryLength,
  maxImages,
  maxVideoBytes,
  minVideoBytes,
  videoTypes,
} from './limits.ts';
import { type LinkedInOptions, linkedInAuthorPattern, linkedInCredentialsSchema } from './options.ts';

/** Everything the Posts, Images and Videos APIs would refuse, found before anything is sent. */
export function validateLinkedInPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: LinkedInOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  if (!linkedInCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({ code: 'credentials_invalid', message: 'LinkedIn credentials need an accessToken' });
  }
  if (!linkedInAuthorPattern.test(account.platformAccountId)) {
    errors.push({
      code: 'account_invalid',
      message: 'A LinkedIn platformAccountId is urn:li:person:<id> or urn:li:organization:<number>',
    });
  }

  const length = linkedInTextLength(post.message);
  if (length > maxCommentaryLength) {
    errors.push({
      code: 'text_too_long',
      message: `The message is ${length} characters; LinkedIn allows at most ${maxCommentaryLength}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'LinkedIn needs a message or media', path: 'message' });
  }

  const videos = media.filter((m) => m.kind === 'video');
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    if (file.kind === 'video') {
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `LinkedIn videos must be MP4, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxVideoBytes) {
        errors.push({
          code: 'media_too_large',
          message: `${file.filename} is ${file.size} bytes; LinkedIn accepts videos up to 500 MB`,
          path,
        });
      } else if (file.size < minVideoBytes) {
        warnings.push({
          code: 'media_too_small',
          message: `${file.filename} is ${file.size} bytes; LinkedIn documents a 75 KB minimum and may refuse it`,
          path,
        });
      }
    } else if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `LinkedIn takes JPEG, PNG and GIF images or MP4 video, not ${file.contentType}`,
        path,
      });
    }
  }
  if (videos.length > 0 && media.length > 1) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'A LinkedIn post carries one video, or 1 to 20 images, not both',
      path: 'media',
    });
  } else if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `LinkedIn posts hold at most ${maxImages} images; this one has ${media.length}`,
      path: 'media',
    });
  }

  if (options.visibility === 'CONNECTIONS' && account.platformAccountId.startsWith('urn:li:organization:')) {
    errors.push({
      code: 'invalid_option',
      message: 'Organization pages have no connections: use visibility "PUBLIC" or "LOGGED_IN"',
      path: `accountOptions.${account.id}.visibility`,
    });
  }
  return { errors, warnings };
}
