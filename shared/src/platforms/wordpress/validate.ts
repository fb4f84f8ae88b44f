import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormMedia, checkLongFormTitle, longFormParts } from '../long-form.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { wordpressMaxImages, wordpressTitleRules } from './manifest.ts';
import { type WordPressOptions, wordpressCredentialsSchema } from './options.ts';

/** The checks made before anything is sent: credentials' shape, the title, the images. Browser-safe. */
export function validateWordPressPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: WordPressOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const credentials = wordpressCredentialsSchema.safeParse(account.credentials);
  if (!credentials.success) {
    errors.push({
      code: 'credentials_invalid',
      message: `WordPress credentials need a valid ${credentials.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      path: 'credentials',
    });
  }
  const parts = longFormParts(post.message, options.title);
  errors.push(...checkLongFormTitle(parts, wordpressTitleRules, account.id));
  errors.push(...checkLongFormMedia(media, 'WordPress', wordpressMaxImages));
  if (parts.body === '' && media.length === 0 && options.status !== 'draft') {
    warnings.push({
      code: 'body_empty',
      message: 'The WordPress post has a title but no text or images',
      path: 'message',
    });
  }
  return { errors, warnings };
}
