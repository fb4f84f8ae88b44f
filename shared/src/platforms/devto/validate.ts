import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormMedia, checkLongFormTitle, longFormParts } from '../long-form.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { devtoMaxImages, devtoTitleRules } from './manifest.ts';
import { type DevtoOptions, devtoCredentialsSchema } from './options.ts';

/**
 * The checks made before anything is sent. Dev.to fetches images from our public media URLs (the
 * cover image and those in the body), hence `media_url_not_public`. Browser-safe.
 */
export function validateDevtoPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: DevtoOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!devtoCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Dev.to credentials need an apiKey',
      path: 'credentials',
    });
  }
  const parts = longFormParts(post.message, options.title);
  errors.push(...checkLongFormTitle(parts, devtoTitleRules, account.id));
  errors.push(...checkLongFormMedia(media, 'Dev.to', devtoMaxImages));
  return { errors, warnings: mediaUrlWarnings(media, 'Dev.to') };
}
