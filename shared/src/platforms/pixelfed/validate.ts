import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength, graphemeLength } from '../../text.ts';
import type { InstanceLimits } from '../mastodon/limits.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * The checks a Pixelfed server makes, against its own limits: a photo or video is required, and
 * the caption is counted as plain text (Laravel's `max:` rule, Unicode code points), so a URL
 * counts at its full length, unlike on Mastodon. Browser-safe.
 */
export function validatePixelfedPost(
  post: PostContent,
  media: readonly MediaInfo[],
  limits: InstanceLimits,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const length = codePointLength(post.message);
  if (length > limits.maxCharacters) {
    errors.push({
      code: 'text_too_long',
      message: `This Pixelfed server allows captions of ${limits.maxCharacters} characters; this one has ${length} (links count in full)`,
      path: 'message',
    });
  }
  if (media.length === 0)
    errors.push({
      code: 'media_required',
      message: 'A Pixelfed post needs a photo or a video',
      path: 'media',
    });
  if (media.length > limits.maxMediaAttachments) {
    errors.push({
      code: 'too_many_media',
      message: `This Pixelfed server allows ${limits.maxMediaAttachments} photos or videos per post; this one has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    if (
      !limits.supportedMimeTypes.includes(file.contentType) ||
      (file.kind !== 'image' && file.kind !== 'gif' && file.kind !== 'video')
    ) {
      errors.push({
        code: 'media_type_unsupported',
        message: `This Pixelfed server does not accept ${file.contentType}`,
        path,
      });
      continue;
    }
    const limit = file.kind === 'video' ? limits.videoSizeLimit : limits.imageSizeLimit;
    if (file.size > limit) {
      errors.push({
        code: 'media_too_large',
        message: `This Pixelfed server accepts files up to ${mebibytes(limit)}; "${file.filename}" is ${mebibytes(file.size)}`,
        path,
      });
    }
    if (file.altText !== undefined && graphemeLength(file.altText) > limits.descriptionLimit) {
      errors.push({
        code: 'alt_text_too_long',
        message: `Alt text may be up to ${limits.descriptionLimit} characters on this server`,
        path: `${path}.altText`,
      });
    }
  }
  return { errors, warnings: [] };
}
