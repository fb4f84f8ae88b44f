import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { graphemeLength, utf8Length } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import {
  imageTypes,
  maxGraphemes,
  maxImageBytes,
  maxImages,
  maxTextBytes,
  maxVideoAltGraphemes,
  maxVideoBytes,
  videoTypes,
} from './config.ts';
import type { BlueskyOptions } from './options.ts';

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toLocaleString('en')} MB`;

/** Bluesky's own record rules, checked before anything is sent. */
export function validateBlueskyPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: BlueskyOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  const graphemes = graphemeLength(post.message);
  if (graphemes > maxGraphemes) {
    errors.push({
      code: 'text_too_long',
      message: `Bluesky allows ${maxGraphemes} characters; this text has ${graphemes}`,
      path: 'message',
    });
  } else if (utf8Length(post.message) > maxTextBytes) {
    errors.push({
      code: 'text_too_long',
      message: `Bluesky allows ${maxTextBytes} bytes of text; this text has ${utf8Length(post.message)} (emoji and many scripts take 3-4 bytes a character)`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'A Bluesky post needs text or media', path: 'message' });
  }

  const videos = media.filter((m) => m.kind === 'video');
  const images = media.filter((m) => m.kind === 'image' || m.kind === 'gif');
  media.forEach((file, index) => {
    const path = `media.${index}`;
    if (file.kind === 'video') {
      if (!(videoTypes as readonly string[]).includes(file.contentType)) {
        errors.push({ code: 'media_type_unsupported', message: 'Bluesky accepts videos as MP4 only', path });
      } else if (file.size > maxVideoBytes) {
        errors.push({
          code: 'media_too_large',
          message: `Bluesky videos may be up to ${megabytes(maxVideoBytes)}; "${file.filename}" is ${megabytes(file.size)}`,
          path,
        });
      }
      if (file.altText !== undefined && graphemeLength(file.altText) > maxVideoAltGraphemes) {
        errors.push({
          code: 'alt_text_too_long',
          message: `Bluesky takes up to ${maxVideoAltGraphemes} characters of alt text for a video`,
          path: `${path}.altText`,
        });
      }
    } else if (file.kind === 'image' || file.kind === 'gif') {
      if (!(imageTypes as readonly string[]).includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `Bluesky does not accept ${file.contentType}`,
          path,
        });
      } else if (file.size > maxImageBytes) {
        errors.push({
          code: 'media_too_large',
          message: `Bluesky images may be up to ${maxImageBytes.toLocaleString('en')} bytes; "${file.filename}" has ${file.size.toLocaleString('en')}`,
          path,
        });
      }
      if (file.kind === 'gif') {
        warnings.push({
          code: 'gif_not_animated',
          message: 'Bluesky shows GIF images as still pictures',
          path,
        });
      }
    } else {
      errors.push({ code: 'media_type_unsupported', message: 'Bluesky posts cannot carry documents', path });
    }
  });
  if (videos.length > 0 && (images.length > 0 || videos.length > 1)) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'A Bluesky post holds one video, or images',
      path: 'media',
    });
  }
  if (images.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `Bluesky allows ${maxImages} images per post; this post has ${images.length}`,
      path: 'media',
    });
  }
  if (options.altTexts && options.altTexts.length > media.length) {
    errors.push({
      code: 'invalid_option',
      message: `altTexts has ${options.altTexts.length} entries but the post has ${media.length} media files`,
      path: 'altTexts',
    });
  }
  return { errors, warnings };
}
