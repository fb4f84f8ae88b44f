import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { accountIdIssue } from '../account-id.ts';
import { checkMediaRules, type MediaRuleSet } from '../media-rules.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import {
  imageTypes,
  linkedInTextLength,
  maxCommentaryLength,
  maxImages,
  maxVideoBytes,
  minVideoBytes,
  videoTypes,
} from './limits.ts';
import { type LinkedInOptions, linkedInAuthorPattern, linkedInCredentialsSchema } from './options.ts';

const linkedInMediaRules: MediaRuleSet = {
  video: {
    types: videoTypes,
    maxBytes: maxVideoBytes,
    minBytes: minVideoBytes,
    unsupported: (type) => `LinkedIn videos must be MP4, not ${type}`,
    tooLarge: (file) => `${file.filename} is ${file.size} bytes; LinkedIn accepts videos up to 500 MB`,
    tooSmall: (file) =>
      `${file.filename} is ${file.size} bytes; LinkedIn documents a 75 KB minimum and may refuse it`,
  },
  image: {
    types: imageTypes,
    unsupported: (type) => `LinkedIn takes JPEG, PNG and GIF images or MP4 video, not ${type}`,
  },
  maxItems: maxImages,
  mixed: 'A LinkedIn post carries one video, or 1 to 20 images, not both',
  tooMany: (count) => `LinkedIn posts hold at most ${maxImages} images; this one has ${count}`,
};

/** Everything the Posts, Images and Videos APIs would refuse, found before anything is sent. */
export function validateLinkedInPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: LinkedInOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  if (!linkedInCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({ code: 'credentials_invalid', message: 'LinkedIn credentials need an accessToken' });
  }
  const id = accountIdIssue(
    account,
    linkedInAuthorPattern,
    'LinkedIn',
    'urn:li:person:<id> or urn:li:organization:<number>',
  );
  if (id) errors.push(id);

  const length = linkedInTextLength(post.message);
  if (length > maxCommentaryLength) {
    errors.push({
      code: 'text_too_long',
      message: `The message is ${length} characters; LinkedIn allows at most ${maxCommentaryLength}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'LinkedIn needs a message or media', path: 'message' });
  }

  const checked = checkMediaRules(media, linkedInMediaRules);
  errors.push(...checked.errors);
  warnings.push(...checked.warnings);

  if (options.visibility === 'CONNECTIONS' && account.platformAccountId.startsWith('urn:li:organization:')) {
    errors.push({
      code: 'invalid_option',
      message: 'Organization pages have no connections: use visibility "PUBLIC" or "LOGGED_IN"',
      path: `accountOptions.${account.id}.visibility`,
    });
  }
  return { errors, warnings };
}
