import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { castBytes, castLimit, maxEmbeds } from './limits.ts';

/** Browser-safe: counts UTF-8 bytes against 320 (1024 with `longCast`), as `validateFarcasterCast` does. */
export const farcasterManifest: PlatformManifest = {
  id: 'farcaster',
  name: 'Farcaster',
  icon: svgIcon(
    'M5.5 3h13v18h-2.6v-8.2h-.1a2.8 2.8 0 0 0-5.6 0h-.1V21H5.5V3Zm-3 3h2.1v15H2.5V6Zm16.9 0h2.1v15h-2.1V6Z',
  ),
  color: '#8a63d2',
  text: {
    limit: castLimit({}),
    unit: 'bytes (UTF-8)',
    count: ({ message, options }) => ({ used: castBytes(message), limit: castLimit(options), unit: 'bytes' }),
  },
  media: {
    required: false,
    maxItems: maxEmbeds,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxEmbeds} images or videos, embedded by their public URL`,
  },
  options: [
    {
      name: 'channelId',
      label: 'Channel',
      type: 'text',
      placeholder: 'farcaster',
      help: 'Cast in this channel (its id, as in /channel/<id>).',
    },
    {
      name: 'longCast',
      label: 'Long cast (up to 1024 bytes, Farcaster Pro)',
      type: 'boolean',
    },
  ],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'credentials',
    intro:
      'Create a managed signer for your Farcaster account with Neynar (your Neynar app, or the Neynar developer portal), approve it in the Farcaster app, and paste its signer UUID.',
    fields: [
      {
        name: 'signerUuid',
        label: 'Neynar signer UUID',
        type: 'password',
        placeholder: '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec',
        required: true,
      },
    ],
  },
  docs: 'docs/platforms/farcaster.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
