import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { accountIdIssue } from '../account-id.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { maxAttachments } from './limits.ts';
import { channelIdPattern, type SlackOptions, slackCredentialsSchema } from './options.ts';
import { maxTextLength, slackLength } from './text.ts';

/** Checks a post against Slack's limits for chat.postMessage and file shares, before anything is sent. */
export function validateSlackPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: SlackOptions,
  maxFileBytes: number,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  if (!slackCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Slack credentials need the botToken (xoxb-…) of the installed app',
      path: 'credentials',
    });
  }
  const id = accountIdIssue(
    account,
    channelIdPattern,
    'Slack',
    'the channel id (C0123456789, from the channel details) rather than its name',
  );
  if (id) errors.push(id);
  const length = slackLength(post.message, options.mrkdwn);
  if (length > maxTextLength) {
    errors.push({
      code: 'text_too_long',
      message: `Slack messages are limited to ${maxTextLength} characters; this one has ${length}${options.mrkdwn ? '' : ' (&, < and > count as &amp;, &lt; and &gt;)'}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'A Slack message needs text or a file', path: 'message' });
  }
  if (media.length > maxAttachments) {
    errors.push({
      code: 'too_many_media',
      message: `Slack shares at most ${maxAttachments} files with one message; this post has ${media.length}`,
      path: 'media',
    });
  }
  media.forEach((file, index) => {
    if (file.size > maxFileBytes) {
      errors.push({
        code: 'media_too_large',
        message: `${file.filename} is ${file.size} bytes; files sent to Slack here may be up to ${maxFileBytes} bytes`,
        path: `media[${index}]`,
      });
    }
  });
  return { errors, warnings: [] };
}
