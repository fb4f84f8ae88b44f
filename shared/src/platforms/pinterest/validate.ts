import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import {
  imageTypes,
  maxAltTextLength,
  maxDescriptionLength,
  maxImageBytes,
  maxImages,
  maxVideoBytes,
  pinterestLength,
  videoTypes,
} from './limits.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Pinterest's rules for one pin: the description (the message) up to 500 characters, an image,
 * a video or a carousel of 2 to 5 images, types, sizes and alt text. The title (100 characters,
 * also in code points) and link limits are in the options schema. Browser-safe.
 */
export function validatePinterestPin(post: PostContent, media: readonly MediaInfo[]): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const length = pinterestLength(post.message);
  if (length > maxDescriptionLength) {
    errors.push({
      code: 'description_too_long',
      message: `A Pinterest pin's description holds ${maxDescriptionLength} characters; this one has ${length}`,
      path: 'message',
    });
  }
  const videos = media.filter((file) => file.kind === 'video');
  if (media.length === 0) {
    errors.push({ code: 'media_required', message: 'A pin needs an image or a video', path: 'media' });
  } else if (videos.length > 0 && media.length > 1) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'A pin is one video, or 1 to 5 images',
      path: 'media',
    });
  } else if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `A carousel pin holds 2 to ${maxImages} images; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    if (file.kind === 'video') {
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `Pinterest accepts MP4, MOV or M4V videos, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxVideoBytes) {
        errors.push({ code: 'media_too_large', message: 'Pinterest accepts videos up to 2 GB', path });
      }
    } else if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Pinterest accepts JPEG, PNG, WebP, GIF, BMP or TIFF images, not ${file.contentType}`,
        path,
      });
    } else if (file.size > maxImageBytes) {
      errors.push({
        code: 'media_too_large',
        message: `Pinterest accepts images up to ${megabytes(maxImageBytes)}; "${file.filename}" is ${megabytes(file.size)}`,
        path,
      });
    }
    if (file.altText && pinterestLength(file.altText) > maxAltTextLength) {
      errors.push({
        code: 'alt_text_too_long',
        message: `Pinterest alt text holds ${maxAltTextLength} characters`,
        path: `${path}.altText`,
      });
    }
  });
  // Images are fetched by Pinterest from our URL; videos are uploaded.
  const warnings = mediaUrlWarnings(media, 'Pinterest', (file) => file.kind !== 'video');
  return { errors, warnings };
}
