import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import { checkLongFormTitle, longFormParts, type TitleRules } from '../long-form.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { imageTypes, maxBodyLength, maxImages, maxTitleLength } from './limits.ts';
import type { LemmyOptions } from './options.ts';

/** How Lemmy counts and limits titles (`is_valid_post_title`: up to 200 characters). */
export const lemmyTitleRules: TitleRules = {
  platform: 'Lemmy',
  maxLength: maxTitleLength,
  unit: 'characters',
  count: codePointLength,
};

/**
 * Lemmy's post rules: a title of 3 to 200 characters on one line (the long-form rules:
 * `title_required`, `title_too_long` at `message` or `accountOptions.<id>.title`), a body up to
 * 10,000, images only. Browser-safe.
 */
export function validateLemmyPost(
  post: PostContent,
  accountId: string,
  media: readonly MediaInfo[],
  options: LemmyOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const parts = longFormParts(post.message, options.title);
  const { body } = parts;
  const titleIssues = checkLongFormTitle(parts, lemmyTitleRules, accountId);
  errors.push(...titleIssues);
  const titlePath = parts.titleFromMessage ? 'message' : `accountOptions.${accountId}.title`;
  if (titleIssues.length === 0 && codePointLength(parts.title) < 3) {
    errors.push({
      code: 'title_required',
      message:
        'A Lemmy post needs a title of at least 3 characters: the title option, or the first line of the message',
      path: titlePath,
    });
  } else if (/[\r\n]/.test(parts.title)) {
    errors.push({ code: 'invalid_option', message: 'A Lemmy title is one line', path: titlePath });
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
