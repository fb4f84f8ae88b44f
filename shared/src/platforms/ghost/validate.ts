import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormMedia, checkLongFormTitle, longFormParts } from '../long-form.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { ghostMaxImages, ghostTitleRules } from './manifest.ts';
import { type GhostOptions, ghostCredentialsSchema } from './options.ts';

/** The checks made before anything is sent: credentials' shape, the title, the images. Browser-safe. */
export function validateGhostPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: GhostOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const credentials = ghostCredentialsSchema.safeParse(account.credentials);
  if (!credentials.success) {
    errors.push({
      code: 'credentials_invalid',
      message: `Ghost credentials need a valid ${credentials.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      path: 'credentials',
    });
  }
  const parts = longFormParts(post.message, options.title);
  errors.push(...checkLongFormTitle(parts, ghostTitleRules, account.id));
  errors.push(...checkLongFormMedia(media, 'Ghost', ghostMaxImages));
  return { errors, warnings: [] };
}
