import { codePointLength } from '../../text.ts';

/** Slack's limit on a message's `text` (and a file share's `initial_comment`). */
export const maxTextLength = 40_000;

/**
 * The text as sent: plain text has `&`, `<` and `>` escaped as Slack asks, so nothing the user
 * typed becomes a mention, a link or markup; `mrkdwn` text goes as written. Browser-safe.
 */
export function slackText(message: string, mrkdwn: boolean | undefined): string {
  if (mrkdwn) return message;
  return message.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

/** Characters (code points) of the text as sent, what the 40,000 limit counts. */
export function slackLength(message: string, mrkdwn: boolean | undefined): number {
  return codePointLength(slackText(message, mrkdwn));
}
