import { firstCommentField } from '../first-comment.ts';
import type { PlatformManifest } from '../manifest.ts';
import { threadsLength } from './count.ts';
import { maxCarouselItems, maxTextLength } from './limits.ts';

/** Browser-safe description of Threads; the counter is the function validation uses. */
export const threadsManifest: PlatformManifest = {
  id: 'threads',
  name: 'Threads',
  icon: '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M12.2 2C6.9 2 3.5 5.5 3.5 12s3.4 10 8.7 10c4.3 0 7.6-2.2 8.2-6.3l-2.3-.4c-.5 2.8-2.7 4.4-5.9 4.4-4 0-6.3-2.6-6.3-7.7s2.3-7.7 6.3-7.7c3 0 5 1.4 5.7 4.1l2.3-.6C19.3 4.3 16.4 2 12.2 2zm.5 6.6c-2.6 0-4.3 1.5-4.3 3.5 0 1.9 1.5 3.2 3.6 3.2 2.4 0 3.8-1.6 4-4.5.7.4 1.1 1 1.1 1.9h2.2c0-2.4-1.5-4.1-4.1-4.1zm-.5 2.3c.6 0 1.2.1 1.7.2-.1 1.8-.8 2.6-1.9 2.6-.8 0-1.4-.4-1.4-1.1 0-.9.6-1.7 1.6-1.7z"/></svg>',
  color: '#000000',
  text: {
    limit: maxTextLength,
    unit: 'characters (an emoji counts its UTF-8 bytes)',
    count: ({ message }) => ({ used: threadsLength(message), limit: maxTextLength, unit: 'characters' }),
  },
  media: {
    required: false,
    maxItems: maxCarouselItems,
    kinds: ['image', 'video'],
    summary: 'One image or video, or a carousel of 2 to 20 (JPEG, PNG, MP4, MOV)',
  },
  options: [
    {
      name: 'replyControl',
      label: 'Who can reply',
      type: 'select',
      choices: [
        { value: 'everyone', label: 'Everyone' },
        { value: 'accounts_you_follow', label: 'Profiles you follow' },
        { value: 'mentioned_only', label: 'Mentioned profiles only' },
        { value: 'followers_only', label: 'Your followers' },
        { value: 'parent_post_author_only', label: 'The author of the post replied to' },
      ],
    },
    { name: 'topicTag', label: 'Topic', type: 'text', help: '1 to 50 characters, no "." or "&".' },
    { name: 'replyToId', label: 'Reply to post', type: 'text', help: 'The Threads media id to reply to.' },
    { name: 'quotePostId', label: 'Quote post', type: 'text', help: 'The Threads media id to quote.' },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: 1000 } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/threads',
    requiredEnv: ['THREADS_APP_ID', 'THREADS_APP_SECRET'],
    intro: 'Sign in with Threads and allow Postwave to read your profile and publish posts.',
  },
  analytics: {
    post: ['views', 'likes', 'comments', 'reposts', 'quotes', 'shares'],
    account: ['followers'],
  },
  docs: 'docs/platforms/threads.md',
};
