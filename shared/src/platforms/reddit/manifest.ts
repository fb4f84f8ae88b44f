import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { redditKind } from './kind.ts';
import { maxBodyLength, maxFlairTextLength, maxTitleLength } from './limits.ts';

/**
 * Browser-safe. The counter counts the body of a self post (the message) in characters, as
 * `validateRedditPost` does; the title is the required `title` option (300 characters).
 */
export const redditManifest: PlatformManifest = {
  id: 'reddit',
  name: 'Reddit',
  icon: svgIcon(
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.5 10.2c0 2.8-2.9 5-6.5 5s-6.5-2.2-6.5-5c0-.9.3-1.7.9-2.4a1.5 1.5 0 1 1 1.9-2.1A9 9 0 0 1 12 7l1-3.6 2.7.6a1.2 1.2 0 1 1-.2 1l-2-.4-.7 2.4c1.5.1 2.8.6 3.8 1.3a1.5 1.5 0 1 1 1.9 2.1c.6.7 1 1.5 1 2.4ZM9 13.3a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Zm6 0a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Zm-5.3 2c.6.5 1.4.7 2.3.7s1.7-.2 2.3-.7l-.5-.5c-.5.3-1.1.5-1.8.5s-1.3-.2-1.8-.5Z',
  ),
  color: '#ff4500',
  text: {
    limit: maxBodyLength,
    unit: 'characters of the body (self posts)',
    count: ({ message, hasMedia }) => ({
      used:
        redditKind(message, hasMedia ? [{ kind: 'image' }] : []) === 'self' ? codePointLength(message) : 0,
      limit: maxBodyLength,
      unit: 'characters',
    }),
  },
  media: {
    required: false,
    maxItems: 1,
    kinds: ['image', 'gif', 'video'],
    summary:
      'One image or one video (the message is then not sent); a message that is only a URL is a link post',
  },
  options: [
    {
      name: 'title',
      label: 'Title',
      type: 'text',
      required: true,
      help: `Up to ${maxTitleLength} characters.`,
    },
    {
      name: 'flairId',
      label: 'Flair',
      type: 'select',
      help: 'The post flairs of this subreddit; some subreddits require one.',
      choicesFrom: {},
    },
    {
      name: 'flairText',
      label: 'Flair text',
      type: 'text',
      help: `For a flair the subreddit lets you edit, up to ${maxFlairTextLength} characters.`,
    },
    { name: 'nsfw', label: 'NSFW', type: 'boolean' },
    { name: 'spoiler', label: 'Spoiler', type: 'boolean' },
  ],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/reddit',
    requiredEnv: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'],
    intro: 'Sign in to Reddit and allow posting; then pick the subreddits (and your own profile) to post to.',
  },
  docs: 'docs/platforms/reddit.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
