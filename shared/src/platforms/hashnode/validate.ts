import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormMedia, checkLongFormTitle, longFormParts } from '../long-form.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { hashnodeMaxImages, hashnodeTitleRules } from './manifest.ts';
import { type HashnodeOptions, hashnodeCredentialsSchema } from './options.ts';

/**
 * The checks made before anything is sent. Hashnode's API takes images by URL (the cover and those
 * in the Markdown), so it fetches our public media URLs: hence `media_url_not_public`. Browser-safe.
 */
export function validateHashnodePost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: HashnodeOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!hashnodeCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Hashnode credentials need a personalAccessToken',
      path: 'credentials',
    });
  }
  errors.push(
    ...checkLongFormTitle(longFormParts(post.message, options.title), hashnodeTitleRules, account.id),
  );
  errors.push(...checkLongFormMedia(media, 'Hashnode', hashnodeMaxImages));
  return { errors, warnings: mediaUrlWarnings(media, 'Hashnode') };
}
