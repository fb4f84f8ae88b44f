import { firstCommentField } from '../first-comment.ts';
import type { PlatformManifest } from '../manifest.ts';
import { facebookTextLength, maxMessageLength, maxPhotos } from './limits.ts';

export const facebookManifest: PlatformManifest = {
  id: 'facebook',
  name: 'Facebook',
  icon: '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M24 12a12 12 0 1 0-13.9 11.9v-8.4H7.1V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12Z"/></svg>',
  color: '#0866FF',
  text: {
    limit: maxMessageLength,
    unit: 'characters',
    count: ({ message }) => ({
      used: facebookTextLength(message),
      limit: maxMessageLength,
      unit: 'characters',
    }),
  },
  media: {
    required: false,
    maxItems: maxPhotos,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxPhotos} photos (4 MB each), or 1 video`,
  },
  options: [
    {
      name: 'link',
      label: 'Link',
      type: 'text',
      placeholder: 'https://…',
      help: 'Shared with a text post; Facebook shows its preview.',
    },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: { maxLength: 1000 } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/facebook',
    requiredEnv: ['FACEBOOK_APP_ID', 'FACEBOOK_APP_SECRET'],
    intro: 'Continue with Facebook and choose the Pages to connect; each Page becomes one account.',
  },
  analytics: { post: ['likes', 'comments', 'reposts'], account: ['followers'] },
  docs: 'docs/platforms/facebook.md',
};
