import { utf8Length } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxAltTextLength, maxContentBytes, maxMediaItems } from './limits.ts';

/** Browser-safe: counts UTF-8 bytes of the text, as `validateNostrNote` does. */
export const nostrManifest: PlatformManifest = {
  id: 'nostr',
  name: 'Nostr',
  icon: svgIcon(
    'M19.5 3h-2.2a1 1 0 0 0-1 1v7.2L8.4 3.4A1.4 1.4 0 0 0 7.4 3H4.5a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h2.2a1 1 0 0 0 1-1v-7.2l7.9 7.8c.3.3.6.4 1 .4h2.9a1 1 0 0 0 1-1V4a1 1 0 0 0-1-1Z',
  ),
  color: '#8e30eb',
  text: {
    limit: maxContentBytes,
    unit: 'bytes of UTF-8 text',
    count: ({ message }) => ({ used: utf8Length(message), limit: maxContentBytes, unit: 'bytes (UTF-8)' }),
  },
  media: {
    required: false,
    maxItems: maxMediaItems,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxMediaItems} images or videos, linked by their public URL`,
  },
  options: [
    {
      name: 'relays',
      label: 'Relays',
      type: 'tags',
      namesHosts: true,
      placeholder: 'wss://relay.example.com',
      help: 'wss:// URLs that replace the server’s default relays (NOSTR_RELAYS) for this post.',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'credentials',
    intro:
      'Paste the private key (nsec1… or hex) of the Nostr identity to post as. It signs each note and is stored encrypted; consider a key made for posting.',
    fields: [
      {
        name: 'secretKey',
        label: 'Private key (nsec)',
        type: 'password',
        placeholder: 'nsec1…',
        required: true,
      },
      {
        name: 'platformAccountId',
        label: 'Public key (npub), to double-check',
        type: 'text',
        placeholder: 'npub1…',
        help: 'Optional: the key must belong to this npub.',
        required: false,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/nostr.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
