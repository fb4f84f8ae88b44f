import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { splitPost } from './content.ts';
import { imageTypes, maxBodyLength, maxImages, maxTitleLength } from './limits.ts';
import type { LemmyOptions } from './options.ts';

/** Lemmy's post rules: a title of 3 to 200 characters, a body up to 10,000, images only. Browser-safe. */
export function validateLemmyPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: LemmyOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const { title, body } = splitPost(post.message, options);
  const titlePath = options.title ? 'title' : 'message';
  // is_valid_post_title: 3 to 200 characters once trimmed, on one line (splitPost keeps it on one).
  if (codePointLength(title) < 3) {
    errors.push({
      code: options.title ? 'invalid_option' : 'text_required',
      message:
        'A Lemmy post needs a title of at least 3 characters: the title option, or the first line of the message',
      path: titlePath,
    });
  } else if (/[\r\n]/.test(title)) {
    errors.push({ code: 'invalid_option', message: 'A Lemmy title is one line', path: titlePath });
  } else if (codePointLength(title) > maxTitleLength) {
    // Only the option can be too long: a long first line is cut by splitPost.
    errors.push({
      code: 'invalid_option',
      message: `A Lemmy title may be up to ${maxTitleLength} characters; this one has ${codePointLength(title)}`,
      path: titlePath,
    });
  }
  const bodyLength = codePointLength(body);
  if (bodyLength > maxBodyLength) {
    errors.push({
      code: 'text_too_long',
      message: `A Lemmy post body may be up to ${maxBodyLength} characters; this one has ${bodyLength}`,
      path: 'message',
    });
  }
  if (media.length > maxImages) {
    errors.push({
      code: 'too_many_media',
      message: `A Lemmy post takes up to ${maxImages} images here; this one has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    if (!imageTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Lemmy posts take images (JPEG, PNG, GIF, WebP); ${file.contentType} is not one`,
        path: `media[${index}]`,
      });
    }
  }
  return { errors, warnings: [] };
}
