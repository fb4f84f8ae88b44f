import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxAltTextLength, maxAttachments } from './limits.ts';
import { maxTextLength, slackLength } from './text.ts';

/** Browser-safe: counts the text as sent (plain text escaped), as `validateSlackPost` does. */
export const slackManifest: PlatformManifest = {
  id: 'slack',
  name: 'Slack',
  icon: svgIcon(
    'M7.75 3.75a1.75 1.75 0 0 1 3.5 0v8a1.75 1.75 0 0 1-3.5 0zM12.25 7.75h8a1.75 1.75 0 0 1 0 3.5h-8a1.75 1.75 0 0 1 0-3.5zM12.75 12.25a1.75 1.75 0 0 1 3.5 0v8a1.75 1.75 0 0 1-3.5 0zM3.75 12.75h8a1.75 1.75 0 0 1 0 3.5h-8a1.75 1.75 0 0 1 0-3.5z',
  ),
  color: '#4a154b',
  text: {
    limit: maxTextLength,
    unit: 'characters, with &, < and > counted as sent (&amp; …) unless mrkdwn is on',
    count: ({ message, options }) => ({
      used: slackLength(message, options.mrkdwn === true),
      limit: maxTextLength,
      unit: 'characters',
    }),
  },
  media: {
    required: false,
    maxItems: maxAttachments,
    kinds: ['image', 'gif', 'video', 'document'],
    summary: `Up to ${maxAttachments} files, shared with the message as its comment`,
  },
  options: [
    {
      name: 'mrkdwn',
      label: 'Slack formatting (mrkdwn)',
      type: 'boolean',
      help: 'Send *bold*, _italic_, <https://example.com|links> and <@U123> mentions as written. Off: plain text.',
    },
    { name: 'unfurlLinks', label: 'Link previews', type: 'boolean', help: 'Show a preview of each link.' },
    {
      name: 'threadTs',
      label: 'Reply in thread',
      type: 'text',
      placeholder: '1712345678.123456',
      help: 'The timestamp (ts) of a message of the channel: the post goes into its thread.',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/slack',
    requiredEnv: ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET'],
    intro:
      'Install the app in your Slack workspace, then pick the channels to post to. The app can post where it is a member: invite it first with /invite @app-name.',
    buttonLabel: 'Add to Slack',
  },
  docs: 'docs/platforms/slack.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
