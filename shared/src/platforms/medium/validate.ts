import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormTitle, longFormParts } from '../long-form.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { mediumImageTypes, mediumMaxImages, mediumTitleRules } from './manifest.ts';
import { type MediumOptions, mediumCredentialsSchema, mediumKeptTags } from './options.ts';

/**
 * The checks made before anything is sent: credentials' shape, the title (100 characters), images
 * Medium's upload takes (JPEG, PNG, GIF), and a warning when tags past the third would be
 * dropped. Images are uploaded to Medium, so no public media URL is needed. Browser-safe.
 */
export function validateMediumPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: MediumOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (!mediumCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Medium credentials need an integrationToken',
      path: 'credentials',
    });
  }
  errors.push(
    ...checkLongFormTitle(longFormParts(post.message, options.title), mediumTitleRules, account.id),
  );
  for (const [index, file] of media.entries()) {
    if (!(mediumImageTypes as readonly string[]).includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Medium takes images (JPEG, PNG, GIF), not ${file.contentType}`,
        path: `media[${index}]`,
      });
    }
  }
  if (media.length > mediumMaxImages) {
    errors.push({
      code: 'too_many_media',
      message: `Medium posts take up to ${mediumMaxImages} images here; this one has ${media.length}`,
      path: 'media',
    });
  }
  if ((options.tags?.length ?? 0) > mediumKeptTags) {
    warnings.push({
      code: 'tags_dropped',
      message: `Medium keeps the first ${mediumKeptTags} tags; ${options.tags!.slice(mediumKeptTags).join(', ')} will not be sent`,
      path: `accountOptions.${account.id}.tags`,
    });
  }
  return { errors, warnings };
}
