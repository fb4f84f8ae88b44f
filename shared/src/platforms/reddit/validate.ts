import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import { accountIdIssue } from '../account-id.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { redditKind } from './kind.ts';
import {
  imageTypes,
  maxBodyLength,
  maxFlairTextLength,
  maxImageBytes,
  maxTitleLength,
  maxVideoBytes,
  subredditNamePattern,
  videoTypes,
} from './limits.ts';
import type { RedditOptions } from './options.ts';
import type { RedditFlair, SubredditRules } from './subreddit.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * What can be judged without asking Reddit: title and body lengths (characters, as Reddit counts
 * them), the one image or video, the flair text. A missing title is `option_required` (manifest).
 */
export function validateRedditPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: RedditOptions,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const at = (name: string) => `accountOptions.${account.id}.${name}`;
  const id = accountIdIssue(
    account,
    subredditNamePattern,
    'Reddit',
    'the subreddit\'s name without r/ (e.g. "postwave", or "u_<name>" for a profile)',
  );
  if (id) errors.push(id);
  const title = options.title ?? '';
  if (codePointLength(title) > maxTitleLength)
    errors.push({
      code: 'title_too_long',
      message: `A Reddit title holds up to ${maxTitleLength} characters; this one has ${codePointLength(title)}`,
      path: at('title'),
    });
  const kind = redditKind(post.message, media);
  if (kind === 'self' && codePointLength(post.message) > maxBodyLength)
    errors.push({
      code: 'text_too_long',
      message: `A Reddit text post holds up to ${maxBodyLength} characters; this one has ${codePointLength(post.message)}`,
      path: 'message',
    });
  if (media.length > 1)
    errors.push({
      code: 'too_many_media',
      message: `A Reddit post takes one image or one video; this one has ${media.length}`,
      path: 'media',
    });
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    const video = file.kind === 'video';
    const types: readonly string[] = video ? videoTypes : imageTypes;
    const max = video ? maxVideoBytes : maxImageBytes;
    if (!types.includes(file.contentType))
      errors.push({
        code: 'media_type_unsupported',
        message: `Reddit takes JPEG, PNG or GIF images and MP4 or MOV videos, not ${file.contentType}`,
        path,
      });
    else if (file.size > max)
      errors.push({
        code: 'media_too_large',
        message: `Reddit takes ${video ? 'videos' : 'images'} up to ${megabytes(max)}; "${file.filename}" is ${megabytes(file.size)}`,
        path,
      });
  });
  if (media.length > 0 && post.message.trim() !== '')
    warnings.push({
      code: 'text_not_sent',
      message: 'Reddit image and video posts carry no body text: the message is not sent (the title is)',
      path: 'message',
    });
  const flairText = options.flairText ?? '';
  if (codePointLength(flairText) > maxFlairTextLength)
    errors.push({
      code: 'flair_text_too_long',
      message: `Reddit flair text holds up to ${maxFlairTextLength} characters`,
      path: at('flairText'),
    });
  if (flairText && !options.flairId)
    errors.push({
      code: 'flair_required_for_text',
      message: 'Flair text goes with an editable flair: choose the flair too',
      path: at('flairText'),
    });
  return { errors, warnings };
}

/** What the subreddit's rules and flairs say about this post (asked from Reddit, briefly cached). */
export function checkSubredditRules(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: RedditOptions,
  rules: SubredditRules,
  flairs: readonly RedditFlair[] | undefined,
  refusal: (kind: ReturnType<typeof redditKind>) => string | undefined,
): ValidationIssue[] {
  const errors: ValidationIssue[] = [];
  const at = (name: string) => `accountOptions.${account.id}.${name}`;
  const kind = redditKind(post.message, media);
  const refused = refusal(kind);
  if (refused)
    errors.push({
      code: 'post_kind_not_allowed',
      message: `r/${account.platformAccountId}: ${refused}`,
      path: kind === 'self' || kind === 'link' ? 'message' : 'media',
    });
  if (kind === 'self' && rules.bodyPolicy === 'required' && post.message.trim() === '')
    errors.push({
      code: 'text_required',
      message: `r/${account.platformAccountId} requires a body for text posts`,
      path: 'message',
    });
  if (kind === 'self' && rules.bodyPolicy === 'notAllowed' && post.message.trim() !== '')
    errors.push({
      code: 'text_not_allowed',
      message: `r/${account.platformAccountId} takes text posts with a title only, no body`,
      path: 'message',
    });
  if (rules.flairRequired && !options.flairId)
    errors.push({
      code: 'flair_required',
      message: `r/${account.platformAccountId} requires a post flair: choose one`,
      path: at('flairId'),
    });
  const chosen = options.flairId ? flairs?.find((f) => f.id === options.flairId) : undefined;
  if (chosen && options.flairText && !chosen.textEditable)
    errors.push({
      code: 'flair_text_not_editable',
      message: `The flair “${chosen.text}” cannot be edited in r/${account.platformAccountId}: leave the flair text empty`,
      path: at('flairText'),
    });
  return errors;
}
