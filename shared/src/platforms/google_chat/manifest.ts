import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxAltTextLength, maxImages } from './limits.ts';
import { maxMessageBytes, textBytes } from './message.ts';

/** Browser-safe: counts the text's bytes as `validateGoogleChatPost` does (image cards add to it there). */
export const googleChatManifest: PlatformManifest = {
  id: 'google_chat',
  name: 'Google Chat',
  icon: svgIcon(
    'M6 3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-8l-5 4v-4.2A3 3 0 0 1 3 14V6a3 3 0 0 1 3-3zM7 8v1.8h10V8zM7 11.2V13h7v-1.8z',
  ),
  color: '#00ac47',
  text: {
    limit: maxMessageBytes,
    unit: 'bytes (UTF-8) of the message, its image cards included',
    count: ({ message }) => ({ used: textBytes(message), limit: maxMessageBytes, unit: 'bytes' }),
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif'],
    summary: `Up to ${maxImages} PNG, JPEG or GIF images, shown in a card from their public URL`,
  },
  options: [
    {
      name: 'threadKey',
      label: 'Thread key',
      type: 'text',
      placeholder: 'release-notes',
      help: 'Posts with the same key go into one thread of the space.',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'credentials',
    intro:
      'In Google Chat, open the space → Apps & integrations → Webhooks → Add webhook, then copy its URL.',
    fields: [
      {
        name: 'webhookUrl',
        label: 'Webhook URL',
        type: 'password',
        placeholder: 'https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…',
        required: true,
      },
    ],
  },
  docs: 'docs/platforms/google_chat.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
