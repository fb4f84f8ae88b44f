import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { graphemeLength } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { mastodonLength } from './count.ts';
import type { InstanceLimits } from './instance.ts';
import type { MastodonOptions } from './options.ts';

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The checks a Mastodon server makes, against that server's own limits. */
export function validateMastodonPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: MastodonOptions,
  limits: InstanceLimits,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  const length = mastodonLength(post.message, options.spoilerText ?? '', limits.charactersReservedPerUrl);
  if (length > limits.maxCharacters) {
    errors.push({
      code: 'text_too_long',
      message: `This Mastodon server allows ${limits.maxCharacters} characters; this post has ${length} (links count as ${limits.charactersReservedPerUrl}${options.spoilerText ? ', the content warning counts too' : ''})`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'A Mastodon post needs text or media', path: 'message' });
  }

  if (media.length > limits.maxMediaAttachments) {
    errors.push({
      code: 'too_many_media',
      message: `This Mastodon server allows ${limits.maxMediaAttachments} attachments; this post has ${media.length}`,
      path: 'media',
    });
  }
  const videos = media.filter((m) => m.kind === 'video').length;
  if (videos > 0 && media.length > 1) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'A Mastodon post holds one video, or images',
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    const path = `media.${index}`;
    if (!limits.supportedMimeTypes.includes(file.contentType) || file.kind === 'document') {
      errors.push({
        code: 'media_type_unsupported',
        message: `This Mastodon server does not accept ${file.contentType}`,
        path,
      });
      return;
    }
    // A GIF is checked as an image on upload, before the server converts it to a video.
    const isVideo = file.kind === 'video';
    const limit = isVideo ? limits.videoSizeLimit : limits.imageSizeLimit;
    if (file.size > limit) {
      errors.push({
        code: 'media_too_large',
        message: `This Mastodon server accepts ${isVideo ? 'videos' : 'images'} up to ${mebibytes(limit)}; "${file.filename}" is ${mebibytes(file.size)}`,
        path,
      });
    }
  });

  media.forEach((file, index) => {
    // The server's own `description_limit`, which can differ from Mastodon's default of 1500.
    if (file.altText !== undefined && graphemeLength(file.altText) > limits.descriptionLimit) {
      errors.push({
        code: 'alt_text_too_long',
        message: `Alt text may be up to ${limits.descriptionLimit} characters on this server`,
        path: `media.${index}.altText`,
      });
    }
  });
  options.altTexts?.forEach((alt, index) => {
    if (graphemeLength(alt) > limits.descriptionLimit) {
      errors.push({
        code: 'invalid_option',
        message: `Alt text may be up to ${limits.descriptionLimit} characters on this server`,
        path: `altTexts.${index}`,
      });
    }
  });
  if (options.altTexts && options.altTexts.length > media.length) {
    errors.push({
      code: 'invalid_option',
      message: `altTexts has ${options.altTexts.length} entries but the post has ${media.length} media files`,
      path: 'altTexts',
    });
  }
  if (options.sensitive && media.length === 0 && !options.spoilerText) {
    warnings.push({
      code: 'option_ignored',
      message: 'sensitive only hides media; this post has none',
      path: 'sensitive',
    });
  }
  return { errors, warnings };
}
