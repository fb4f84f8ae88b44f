import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { eventBytes, maxEventBytes, textContent } from './content.ts';
import { maxAltTextLength, maxMediaItems } from './limits.ts';

/** Browser-safe: measures the text event as `validateMatrixPost` does (body, HTML and envelope). */
export const matrixManifest: PlatformManifest = {
  id: 'matrix',
  name: 'Matrix',
  icon: svgIcon(
    'M2 2h3.5v1.6H3.7v16.8h1.8V22H2zM22 2h-3.5v1.6h1.8v16.8h-1.8V22H22zM7 8h1.6v1a2.6 2.6 0 0 1 2.2-1.2c1 0 1.7.4 2.1 1.2a2.7 2.7 0 0 1 2.3-1.2c1.6 0 2.3 1 2.3 2.6V16h-1.7v-5.2c0-1-.4-1.5-1.2-1.5-.9 0-1.4.6-1.4 1.6V16h-1.7v-5.2c0-1-.4-1.5-1.2-1.5-.9 0-1.4.6-1.4 1.6V16H7z',
  ),
  color: '#0dbd8b',
  text: {
    limit: maxEventBytes,
    unit: 'bytes of the message event (text, its HTML copy and room for the envelope)',
    count: ({ message, options }) => ({
      used: eventBytes(textContent(message, options.notice === true)),
      limit: maxEventBytes,
      unit: 'bytes',
    }),
  },
  media: {
    required: false,
    maxItems: maxMediaItems,
    kinds: ['image', 'gif', 'video', 'document'],
    summary: `Up to ${maxMediaItems} files, each its own event after the text`,
  },
  options: [
    {
      name: 'notice',
      label: 'Send as notice',
      type: 'boolean',
      help: 'm.notice, as bots post: shown subdued, and other bots do not answer it.',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'credentials',
    intro:
      'Use an access token of the account that posts (a bot account is best: Element → Settings → Help & About → Access token), and invite that account to the room first.',
    fields: [
      {
        name: 'homeserverUrl',
        label: 'Homeserver',
        type: 'url',
        placeholder: 'https://matrix.example.org',
        required: true,
        transform: 'https-url',
      },
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
      {
        name: 'room',
        label: 'Room',
        type: 'text',
        placeholder: '!roomid:example.org or #room:example.org',
        help: 'Room settings → Advanced → Internal room ID, or a room alias.',
        required: true,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/matrix.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
