import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { accountIdIssue, numericId } from '../account-id.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import {
  countHashtags,
  countMentions,
  imageTypes,
  instagramCaptionLength,
  maxCaptionLength,
  maxCarouselItems,
  maxCarouselVideoBytes,
  maxHashtags,
  maxImageBytes,
  maxMentions,
  maxReelBytes,
  videoTypes,
} from './limits.ts';
import { type InstagramOptions, instagramCredentialsSchema } from './options.ts';

/** Everything the Content Publishing API would refuse, found before a container is created. */
export function validateInstagramPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: InstagramOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!instagramCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({ code: 'credentials_invalid', message: 'Instagram credentials need an accessToken' });
  }
  const id = accountIdIssue(account, numericId, 'Instagram', 'the numeric professional account id');
  if (id) errors.push(id);
  const length = instagramCaptionLength(post.message);
  if (length > maxCaptionLength) {
    errors.push({
      code: 'text_too_long',
      message: `The caption is ${length} characters; Instagram allows at most ${maxCaptionLength}`,
      path: 'message',
    });
  }
  if (countHashtags(post.message) > maxHashtags) {
    errors.push({
      code: 'too_many_hashtags',
      message: `Instagram allows at most ${maxHashtags} hashtags`,
      path: 'message',
    });
  }
  if (countMentions(post.message) > maxMentions) {
    errors.push({
      code: 'too_many_mentions',
      message: `Instagram allows at most ${maxMentions} @mentions`,
      path: 'message',
    });
  }

  if (media.length === 0) {
    errors.push({
      code: 'media_required',
      message: 'Instagram posts need an image or a video (a carousel takes up to 10)',
      path: 'media',
    });
  } else if (media.length > maxCarouselItems) {
    errors.push({
      code: 'too_many_media',
      message: `An Instagram carousel holds at most ${maxCarouselItems} items; this post has ${media.length}`,
      path: 'media',
    });
  }
  const carousel = media.length > 1;
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    if (file.kind === 'video') {
      const max = carousel ? maxCarouselVideoBytes : maxReelBytes;
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `Instagram videos must be MP4 or MOV, not ${file.contentType}`,
          path,
        });
      } else if (file.size > max) {
        errors.push({
          code: 'media_too_large',
          message: `${file.filename} is ${file.size} bytes; Instagram takes ${carousel ? 'carousel videos up to 100 MB' : 'reels up to 300 MB'}`,
          path,
        });
      }
    } else if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Instagram publishes JPEG images only, not ${file.contentType}; convert it to JPEG`,
        path,
      });
    } else if (file.size > maxImageBytes) {
      errors.push({
        code: 'media_too_large',
        message: `${file.filename} is ${file.size} bytes; Instagram images must be 8 MB or smaller`,
        path,
      });
    }
  }
  const warnings: ValidationIssue[] = mediaUrlWarnings(media, 'Instagram');
  const hasReel = media.length === 1 && media[0]!.kind === 'video';
  for (const name of ['shareToFeed', 'thumbOffset'] as const) {
    if (options[name] !== undefined && !hasReel) {
      warnings.push({
        code: 'option_ignored',
        message: `${name} applies only to a post of one video (a reel)`,
        path: `accountOptions.${account.id}.${name}`,
      });
    }
  }
  return { errors, warnings };
}
