import { firstCommentField } from '../first-comment.ts';
import type { PlatformManifest } from '../manifest.ts';
import { linkedInTextLength, maxCommentaryLength, maxImages } from './limits.ts';

export const linkedInManifest: PlatformManifest = {
  id: 'linkedin',
  name: 'LinkedIn',
  icon: '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M4 2h16a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm1.5 7.5V19h3V9.5h-3ZM7 4.75a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5ZM10.5 9.5V19h3v-5c0-1.4.9-2.2 2-2.2s1.5.8 1.5 2.2v5h3v-5.6c0-2.9-1.6-4.1-3.6-4.1-1.4 0-2.4.6-2.9 1.4V9.5h-3Z"/></svg>',
  color: '#0A66C2',
  text: {
    limit: maxCommentaryLength,
    unit: 'characters (UTF-16)',
    count: ({ message }) => ({
      used: linkedInTextLength(message),
      limit: maxCommentaryLength,
      unit: 'characters (UTF-16)',
    }),
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxImages} images (JPEG, PNG, GIF), or 1 MP4 video up to 500 MB`,
  },
  options: [
    {
      name: 'visibility',
      label: 'Visibility',
      type: 'select',
      choices: [
        { value: 'PUBLIC', label: 'Anyone' },
        { value: 'CONNECTIONS', label: 'Connections only (members)' },
        { value: 'LOGGED_IN', label: 'Signed-in LinkedIn members' },
      ],
    },
    { name: 'disableReshare', label: 'Disable resharing', type: 'boolean' },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: { maxLength: 4086 } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/linkedin',
    requiredEnv: ['LINKEDIN_CLIENT_ID', 'LINKEDIN_CLIENT_SECRET'],
    intro:
      'Sign in with LinkedIn to post as yourself, or as the pages you administer when the operator enabled organization pages.',
  },
  // Followers: the contract names no LinkedIn endpoint for them (organization follower
  // statistics need the Community Management API), so none are collected.
  analytics: { post: ['likes', 'comments'], account: [] },
  docs: 'docs/platforms/linkedin.md',
};
