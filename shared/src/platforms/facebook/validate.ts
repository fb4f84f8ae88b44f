import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { accountIdIssue, numericId } from '../account-id.ts';
import { checkMediaRules, type MediaRuleSet } from '../media-rules.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import {
  facebookTextLength,
  maxMessageLength,
  maxPhotoBytes,
  maxPhotos,
  maxVideoBytes,
  photoTypes,
  videoTypes,
} from './limits.ts';
import { type FacebookOptions, facebookCredentialsSchema } from './options.ts';

const facebookMediaRules: MediaRuleSet = {
  video: {
    types: videoTypes,
    maxBytes: maxVideoBytes,
    unsupported: (type) => `Facebook does not take ${type} videos`,
    tooLarge: (file) => `${file.filename} is over Facebook's 10 GB video limit`,
  },
  image: {
    types: photoTypes,
    maxBytes: maxPhotoBytes,
    unsupported: (type) => `Facebook takes JPEG, PNG, GIF and WebP photos or a video, not ${type}`,
    tooLarge: (file) => `${file.filename} is ${file.size} bytes; Facebook photos must be 4 MB or smaller`,
  },
  maxItems: maxPhotos,
  mixed: 'A Facebook post carries one video, or photos, not both',
  tooMany: (count) =>
    `Postwave posts at most ${maxPhotos} photos to Facebook at once; this post has ${count}`,
};

/** Everything the Pages API would refuse, found before anything is sent. */
export function validateFacebookPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: FacebookOptions,
  resumableVideoBytes: number,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (!facebookCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({ code: 'credentials_invalid', message: 'Facebook credentials need a pageAccessToken' });
  }
  const id = accountIdIssue(account, numericId, 'Facebook', 'the numeric page id');
  if (id) errors.push(id);
  const length = facebookTextLength(post.message);
  if (length > maxMessageLength) {
    errors.push({
      code: 'text_too_long',
      message: `The message is ${length} characters; Facebook allows at most ${maxMessageLength}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0 && !options.link) {
    errors.push({
      code: 'text_required',
      message: 'Facebook needs a message, a link or media',
      path: 'message',
    });
  }

  const checked = checkMediaRules(media, facebookMediaRules);
  errors.push(...checked.errors);
  warnings.push(...checked.warnings);
  if (options.link && media.length > 0) {
    warnings.push({
      code: 'option_ignored',
      message: 'link applies only to posts without media',
      path: `accountOptions.${account.id}.link`,
    });
  }
  // Photos and smaller videos are fetched by Facebook from our public URL.
  warnings.push(
    ...mediaUrlWarnings(media, 'Facebook', (m) => m.kind !== 'video' || m.size <= resumableVideoBytes),
  );
  return { errors, warnings };
}
