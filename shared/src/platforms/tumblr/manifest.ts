import { type PlatformManifest, svgIcon } from '../manifest.ts';
import {
  longestBlockLength,
  maxAltTextLength,
  maxMedia,
  maxTags,
  maxTextBlockLength,
  tumblrStates,
} from './limits.ts';

const stateLabels: Record<(typeof tumblrStates)[number], string> = {
  published: 'Published',
  draft: 'Draft',
  queue: 'Queued (Tumblr publishes it from the blog’s queue)',
};

/** Browser-safe: counts the longest paragraph (NPF text block) as `validateTumblrPost` does. */
export const tumblrManifest: PlatformManifest = {
  id: 'tumblr',
  name: 'Tumblr',
  icon: svgIcon(
    'M14.6 22c-3 0-5.3-1.5-5.3-5.2V10.9H6.6V7.7c3-.8 4.3-3.4 4.4-5.7h3.2v5.2h3.7v3.7h-3.7v5.2c0 1.6.8 2.1 2.1 2.1h1.8V22h-3.5Z',
  ),
  color: '#001935',
  text: {
    limit: maxTextBlockLength,
    unit: 'characters per paragraph (code points)',
    count: ({ message }) => ({
      used: longestBlockLength(message),
      limit: maxTextBlockLength,
      unit: 'characters in the longest paragraph',
    }),
  },
  media: {
    required: false,
    maxItems: maxMedia,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxMedia} images, one of which may be a video`,
  },
  options: [
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      help: `Up to ${maxTags} tags, separated by commas.`,
    },
    {
      name: 'state',
      label: 'Post as',
      type: 'select',
      placeholder: 'Published',
      choices: tumblrStates.map((value) => ({ value, label: stateLabels[value] })),
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/tumblr',
    requiredEnv: ['TUMBLR_CLIENT_ID', 'TUMBLR_CLIENT_SECRET'],
    intro:
      'Sign in with Tumblr and allow Postwave to post. Every blog the login can post to is offered; pick the ones to connect.',
  },
  docs: 'docs/platforms/tumblr.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
