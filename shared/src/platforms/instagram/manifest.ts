import { firstCommentField } from '../first-comment.ts';
import type { PlatformManifest } from '../manifest.ts';
import { instagramCaptionLength, maxCaptionLength, maxCarouselItems } from './limits.ts';

export const instagramManifest: PlatformManifest = {
  id: 'instagram',
  name: 'Instagram',
  icon: '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5Zm0 2a3 3 0 0 0-3 3v10a3 3 0 0 0 3 3h10a3 3 0 0 0 3-3V7a3 3 0 0 0-3-3H7Zm5 3.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5ZM17.5 5.5a1 1 0 1 1 0 2 1 1 0 0 1 0-2Z"/></svg>',
  color: '#E4405F',
  text: {
    limit: maxCaptionLength,
    unit: 'characters',
    count: ({ message }) => ({
      used: instagramCaptionLength(message),
      limit: maxCaptionLength,
      unit: 'characters',
    }),
  },
  media: {
    required: true,
    maxItems: maxCarouselItems,
    kinds: ['image', 'video'],
    summary: `Required: 1 JPEG image, 1 video (reel), or a carousel of up to ${maxCarouselItems}`,
  },
  options: [
    { name: 'shareToFeed', label: 'Show the reel in the feed too', type: 'boolean' },
    { name: 'thumbOffset', label: 'Reel cover frame (ms)', type: 'number', placeholder: '0' },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: { maxLength: 1000 } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/instagram',
    requiredEnv: ['INSTAGRAM_APP_ID', 'INSTAGRAM_APP_SECRET'],
    intro:
      'Sign in with an Instagram professional (business or creator) account. Personal accounts cannot publish through the API.',
  },
  analytics: {
    post: ['views', 'reach', 'likes', 'comments', 'shares', 'saves'],
    account: ['followers'],
  },
  docs: 'docs/platforms/instagram.md',
};
