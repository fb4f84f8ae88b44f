import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { dribbbleImage, dribbbleMaxTitle, dribbbleTitleLength } from './manifest.ts';
import { type DribbbleOptions, dribbbleCredentialsSchema } from './options.ts';

/**
 * The checks that need no file contents: credentials' shape, the title option (required, as the
 * manifest's field says: the same `option_required` issue, so it is reported once), exactly one
 * image of a type and size Dribbble takes. The image's dimensions are checked from its header by
 * `checkShotImage` (the publisher's `validate`, and again before the upload). Browser-safe.
 */
export function validateDribbbleShot(
  _post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: DribbbleOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!dribbbleCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Dribbble credentials need an accessToken',
      path: 'credentials',
    });
  }
  const titlePath = `accountOptions.${account.id}.title`;
  const title = options.title?.trim() ?? '';
  if (title === '') {
    errors.push({ code: 'option_required', message: 'Title is required for Dribbble', path: titlePath });
  } else if (dribbbleTitleLength(title) > dribbbleMaxTitle) {
    errors.push({
      code: 'title_too_long',
      message: `Dribbble shot titles are limited to ${dribbbleMaxTitle} characters here; this one has ${dribbbleTitleLength(title)}`,
      path: titlePath,
    });
  }
  if (media.length === 0) {
    errors.push({ code: 'media_required', message: 'A Dribbble shot is exactly one image', path: 'media' });
  } else if (media.length > 1) {
    errors.push({
      code: 'too_many_media',
      message: `A Dribbble shot is exactly one image; this post has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    if (!dribbbleImage.types.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Dribbble shots are PNG, JPEG or GIF images, not ${file.contentType}`,
        path: `media[${index}]`,
      });
    } else if (file.size > dribbbleImage.maxBytes) {
      errors.push({
        code: 'media_too_large',
        message: `Dribbble takes images up to 8 MB; this one is ${file.size} bytes`,
        path: `media[${index}]`,
      });
    }
  }
  return { errors, warnings: [] };
}

/** `media_dimensions_invalid` unless the size is 400×300 to 1600×1200 in exactly 4:3. */
export function checkShotDimensions(
  size: { width: number; height: number } | undefined,
  path: string,
): ValidationIssue[] {
  const { minWidth, minHeight, maxWidth, maxHeight } = dribbbleImage;
  if (!size) {
    return [
      {
        code: 'media_dimensions_invalid',
        message: 'The image’s dimensions could not be read from its header',
        path,
      },
    ];
  }
  const { width, height } = size;
  if (
    width * 3 === height * 4 &&
    width >= minWidth &&
    height >= minHeight &&
    width <= maxWidth &&
    height <= maxHeight
  ) {
    return [];
  }
  return [
    {
      code: 'media_dimensions_invalid',
      message: `Dribbble shots are ${minWidth}×${minHeight} up to ${maxWidth}×${maxHeight} pixels in 4:3 (e.g. 800×600); this image is ${width}×${height}`,
      path,
    },
  ];
}
