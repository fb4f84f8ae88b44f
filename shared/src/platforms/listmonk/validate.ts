import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { checkLongFormMedia, longFormParts } from '../long-form.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { listmonkMaxImages, listmonkSubjectRules } from './manifest.ts';
import { type ListmonkOptions, listmonkCredentialsSchema } from './options.ts';

/**
 * The checks made before anything is sent: credentials' shape, the list id, the subject (up to
 * 2000 characters; `title_required` / `title_too_long` as on every long-form platform, at
 * `accountOptions.<id>.subject` when the option is set) and the images. Images are uploaded to
 * Listmonk, so no public media URL is needed. Browser-safe.
 */
export function validateListmonkPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: ListmonkOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const credentials = listmonkCredentialsSchema.safeParse(account.credentials);
  if (!credentials.success) {
    errors.push({
      code: 'credentials_invalid',
      message: `Listmonk credentials need a valid ${credentials.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      path: 'credentials',
    });
  }
  // The subject is the long-form title under another name: the same split and codes.
  const parts = longFormParts(post.message, options.subject);
  const path = parts.titleFromMessage ? 'message' : `accountOptions.${account.id}.subject`;
  const used = listmonkSubjectRules.count(parts.title);
  if (parts.title === '') {
    errors.push({
      code: 'title_required',
      message: "Listmonk needs a subject: write it on the message's first line, or set the subject option",
      path,
    });
  } else if (used > listmonkSubjectRules.maxLength) {
    errors.push({
      code: 'title_too_long',
      message: `Listmonk subjects are limited to ${listmonkSubjectRules.maxLength} characters; this one has ${used}`,
      path,
    });
  }
  errors.push(...checkLongFormMedia(media, 'Listmonk', listmonkMaxImages));
  return { errors, warnings: [] };
}
