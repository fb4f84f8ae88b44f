import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { xWeightedLength } from './count.ts';
import {
  imageTypes,
  maxGifBytes,
  maxImageBytes,
  maxImages,
  maxVideoBytes,
  maxWeightedLength,
  takesAltText,
  videoTypes,
} from './limits.ts';
import type { XOptions } from './options.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** X's rules for one post, checked before anything is uploaded. Browser-safe. */
export function validateXPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: XOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  const length = xWeightedLength(post.message);
  if (length > maxWeightedLength) {
    errors.push({
      code: 'text_too_long',
      message: `X allows ${maxWeightedLength} weighted characters; this text counts ${length} (links count 23, emoji and CJK characters 2)`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'An X post needs text or media', path: 'message' });
  }

  const videos = media.filter((m) => m.kind === 'video').length;
  const gifs = media.filter((m) => m.kind === 'gif').length;
  if ((videos > 0 || gifs > 0) && media.length > 1) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'An X post holds up to 4 images, or 1 video, or 1 GIF',
      path: 'media',
    });
  } else if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `X allows ${maxImages} images per post; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    const tooLarge = (limit: number, what: string) =>
      errors.push({
        code: 'media_too_large',
        message: `X accepts ${what} up to ${megabytes(limit)}; "${file.filename}" is ${megabytes(file.size)}`,
        path,
      });
    if (file.kind === 'gif') {
      if (file.size > maxGifBytes) tooLarge(maxGifBytes, 'GIFs');
    } else if (file.kind === 'image') {
      if (!imageTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `X accepts JPEG, PNG, WebP or GIF images, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxImageBytes) tooLarge(maxImageBytes, 'images');
    } else if (file.kind === 'video') {
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `X accepts MP4 or MOV videos, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxVideoBytes) tooLarge(maxVideoBytes, 'videos');
    } else {
      errors.push({ code: 'media_type_unsupported', message: 'X posts cannot carry documents', path });
    }
  });

  media.forEach((file, index) => {
    if (file.altText && !takesAltText(file)) {
      warnings.push({
        code: 'alt_text_unsupported',
        message: 'X takes alt text for images and GIFs only; this video is posted without it',
        path: `media[${index}].altText`,
      });
    }
  });
  if (options.replyToPostId && options.quotePostId === options.replyToPostId) {
    warnings.push({
      code: 'reply_quotes_same_post',
      message: 'The post replies to and quotes the same post',
      path: 'quotePostId',
    });
  }
  return { errors, warnings };
}
