import { firstCommentField } from '../first-comment.ts';
import type { PlatformManifest } from '../manifest.ts';
import { xWeightedLength } from './count.ts';
import { maxImages, maxWeightedLength } from './limits.ts';

/** Browser-safe description of X: counting is twitter-text's, exactly as validation counts. */
export const xManifest: PlatformManifest = {
  id: 'x',
  name: 'X',
  icon: '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M17.8 2.5h3.1l-6.8 7.7 8 10.6h-6.2l-4.9-6.4-5.6 6.4H2.3l7.2-8.3L1.8 2.5h6.4l4.4 5.8 5.2-5.8zm-1.1 16.4h1.7L7.3 4.2H5.5l11.2 14.7z"/></svg>',
  color: '#000000',
  text: {
    limit: maxWeightedLength,
    unit: 'weighted characters (links 23, emoji and CJK 2)',
    count: ({ message }) => ({
      used: xWeightedLength(message),
      limit: maxWeightedLength,
      unit: 'weighted characters',
    }),
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif', 'video'],
    summary: 'Up to 4 images, or 1 video, or 1 GIF',
  },
  options: [
    {
      name: 'replySettings',
      label: 'Who can reply',
      type: 'select',
      choices: [
        { value: 'everyone', label: 'Everyone' },
        { value: 'following', label: 'Accounts you follow' },
        { value: 'mentionedUsers', label: 'Only accounts you mention' },
        { value: 'subscribers', label: 'Your subscribers' },
        { value: 'verified', label: 'Verified accounts' },
      ],
    },
    {
      name: 'replyToPostId',
      label: 'Reply to post',
      type: 'text',
      help: 'The id of the post to reply to (the digits at the end of its URL).',
      placeholder: '1850000000000000000',
    },
    {
      name: 'quotePostId',
      label: 'Quote post',
      type: 'text',
      help: 'The id of the post to quote.',
      placeholder: '1850000000000000000',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: 1000 } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/x',
    requiredEnv: ['X_CLIENT_ID', 'X_CLIENT_SECRET'],
    intro: 'Sign in with X and allow Postwave to post, upload media and stay connected.',
  },
  analytics: {
    post: ['impressions', 'likes', 'comments', 'reposts', 'quotes', 'saves'],
    account: ['followers'],
  },
  docs: 'docs/platforms/x.md',
};
