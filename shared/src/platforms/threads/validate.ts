import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { threadsLength, threadsLinks } from './count.ts';
import {
  imageTypes,
  maxCarouselItems,
  maxImageBytes,
  maxLinks,
  maxTextLength,
  maxVideoBytes,
  videoTypes,
} from './limits.ts';
import type { ThreadsOptions } from './options.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The Threads API's rules for one post, checked before any container is created. Browser-safe. */
export function validateThreadsPost(
  post: PostContent,
  media: readonly MediaInfo[],
  _options: ThreadsOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const length = threadsLength(post.message);
  if (length > maxTextLength) {
    errors.push({
      code: 'text_too_long',
      message: `Threads allows ${maxTextLength} characters; this text counts ${length} (each emoji counts its UTF-8 bytes, usually 4)`,
      path: 'message',
    });
  }
  const links = threadsLinks(post.message).length;
  if (links > maxLinks) {
    errors.push({
      code: 'too_many_links',
      message: `Threads allows ${maxLinks} links per post; this text has ${links}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'A Threads post needs text or media', path: 'message' });
  }
  if (media.length > maxCarouselItems) {
    errors.push({
      code: 'too_many_media',
      message: `A Threads carousel holds 2 to ${maxCarouselItems} items; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    if (file.kind === 'image') {
      if (!imageTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `Threads accepts JPEG or PNG images, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxImageBytes) {
        errors.push({
          code: 'media_too_large',
          message: `Threads accepts images up to ${megabytes(maxImageBytes)}; "${file.filename}" is ${megabytes(file.size)}`,
          path,
        });
      }
    } else if (file.kind === 'video') {
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `Threads accepts MP4 or MOV videos, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxVideoBytes) {
        errors.push({ code: 'media_too_large', message: 'Threads accepts videos up to 1 GB', path });
      }
    } else {
      errors.push({
        code: 'media_type_unsupported',
        message: `Threads posts take JPEG or PNG images and MP4 or MOV videos, not ${file.contentType}`,
        path,
      });
    }
  });
  return { errors, warnings: mediaUrlWarnings(media, 'Threads') };
}
