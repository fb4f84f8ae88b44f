import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength, utf8Length } from '../../text.ts';
import type { PlatformAccount, PostContent, ValidationContext, ValidationOutcome } from '../types.ts';
import {
  maxDescriptionBytes,
  maxTagsLength,
  maxThumbnailBytes,
  maxTitleLength,
  maxVideoBytes,
  thumbnailTypes,
} from './limits.ts';
import { tagsLength, videoDescription, videoPrivacy, videoTitle } from './metadata.ts';
import { type YouTubeOptions, youTubeCredentialsSchema } from './options.ts';

const angleBrackets = /[<>]/;

/** Everything YouTube would refuse, found before a byte is uploaded. */
export async function validateYouTubePost(
  post: PostContent,
  account: PlatformAccount,
  media: MediaInfo[],
  options: YouTubeOptions,
  context: ValidationContext = {},
  now = Date.now(),
): Promise<ValidationOutcome> {
  const errors: ValidationIssue[] = [];
  const optionPath = (name: string) => `accountOptions.${account.id}.${name}`;

  if (!youTubeCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'YouTube credentials need refreshToken, clientId and clientSecret',
    });
  }

  errors.push(...videoIssues(media));

  const title = videoTitle(post, options);
  const titlePath = options.title === undefined ? 'message' : optionPath('title');
  if (title === '') {
    errors.push({
      code: 'title_required',
      message: 'YouTube needs a title: set `title` or start the message with one',
      path: titlePath,
    });
  } else if (codePointLength(title) > maxTitleLength) {
    errors.push({
      code: 'title_too_long',
      message: `YouTube titles are limited to ${maxTitleLength} characters; this one has ${codePointLength(title)}${options.title === undefined ? ' (the first line of the message; set `title`)' : ''}`,
      path: titlePath,
    });
  }
  if (angleBrackets.test(title)) {
    errors.push({ code: 'title_invalid', message: 'YouTube titles cannot contain < or >', path: titlePath });
  }

  const description = videoDescription(post, options);
  const descriptionPath = options.description === undefined ? 'message' : optionPath('description');
  const descriptionBytes = utf8Length(description);
  if (descriptionBytes > maxDescriptionBytes) {
    errors.push({
      code: 'description_too_long',
      message: `YouTube descriptions are limited to ${maxDescriptionBytes} bytes (UTF-8); this one has ${descriptionBytes}`,
      path: descriptionPath,
    });
  }
  if (angleBrackets.test(description)) {
    errors.push({
      code: 'description_invalid',
      message: 'YouTube descriptions cannot contain < or >',
      path: descriptionPath,
    });
  }

  if (options.tags) {
    const length = tagsLength(options.tags);
    if (length > maxTagsLength) {
      errors.push({
        code: 'tags_too_long',
        message: `YouTube allows ${maxTagsLength} characters of tags (commas and quotes count); these have ${length}`,
        path: optionPath('tags'),
      });
    }
    if (options.tags.some((tag) => angleBrackets.test(tag))) {
      errors.push({
        code: 'tags_invalid',
        message: 'YouTube tags cannot contain < or >',
        path: optionPath('tags'),
      });
    }
  }

  if (options.publishAt) {
    if (Date.parse(options.publishAt) <= now) {
      errors.push({
        code: 'publish_at_past',
        message: '`publishAt` must be in the future',
        path: optionPath('publishAt'),
      });
    }
    if (videoPrivacy(options) !== 'private') {
      errors.push({
        code: 'publish_at_requires_private',
        message:
          'YouTube schedules only private videos: use privacyStatus "private" (the default with publishAt)',
        path: optionPath('privacyStatus'),
      });
    }
  }

  if (options.thumbnailUrl !== undefined) {
    errors.push(...(await thumbnailIssues(options.thumbnailUrl, context, optionPath('thumbnailUrl'))));
  }
  return { errors, warnings: [] };
}

function videoIssues(media: MediaInfo[]): ValidationIssue[] {
  if (media.length === 0) {
    return [{ code: 'media_required', message: 'YouTube needs exactly one video', path: 'media' }];
  }
  if (media.length > 1) {
    return [
      {
        code: 'too_many_media',
        message: `YouTube takes exactly one video; this post has ${media.length} files`,
        path: 'media',
      },
    ];
  }
  const video = media[0]!;
  if (video.kind !== 'video') {
    return [
      {
        code: 'media_type_unsupported',
        message: `YouTube takes a video, not ${video.contentType}`,
        path: 'media[0]',
      },
    ];
  }
  if (video.size > maxVideoBytes) {
    return [{ code: 'media_too_large', message: 'YouTube accepts videos up to 256 GB', path: 'media[0]' }];
  }
  return [];
}

/** The thumbnail must be our own stored media: we never fetch arbitrary URLs on a user's behalf. */
async function thumbnailIssues(
  url: string,
  context: ValidationContext,
  path: string,
): Promise<ValidationIssue[]> {
  if (!context.resolveOwnMedia) {
    return [
      { code: 'thumbnail_unsupported', message: 'Custom thumbnails are not available on this server', path },
    ];
  }
  const image = await context.resolveOwnMedia(url);
  if (!image) {
    return [
      {
        code: 'thumbnail_not_found',
        message: 'thumbnailUrl must be the URL of media uploaded to this service',
        path,
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  if (!thumbnailTypes.includes(image.contentType)) {
    issues.push({
      code: 'thumbnail_type_unsupported',
      message: `YouTube thumbnails must be JPEG or PNG, not ${image.contentType}`,
      path,
    });
  }
  if (image.size > maxThumbnailBytes) {
    issues.push({
      code: 'thumbnail_too_large',
      message: `YouTube thumbnails are limited to 2 MB; this one is ${image.size} bytes`,
      path,
    });
  }
  return issues;
}
