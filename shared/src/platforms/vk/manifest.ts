import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxMedia, maxMessageLength } from './limits.ts';

/** Browser-safe: counts code points against 16384, as `validateVkPost` does. */
export const vkManifest: PlatformManifest = {
  id: 'vk',
  name: 'VK',
  icon: svgIcon(
    'M13.1 18.5C6.6 18.5 2.7 14 2.5 6.5h3.3c.1 5.5 2.6 7.8 4.5 8.3V6.5h3.1v4.7c1.9-.2 3.9-2.4 4.6-4.7h3.1a9.3 9.3 0 0 1-4.2 6 9.6 9.6 0 0 1 5 6h-3.4c-.7-2.3-2.6-4.1-5.1-4.4v4.4h-.3Z',
  ),
  color: '#0077ff',
  text: {
    limit: maxMessageLength,
    unit: 'characters (code points)',
    count: ({ message }) => ({ used: codePointLength(message), limit: maxMessageLength, unit: 'characters' }),
  },
  media: {
    required: false,
    maxItems: maxMedia,
    kinds: ['image', 'gif'],
    summary: `Up to ${maxMedia} photos (JPG, PNG, GIF)`,
  },
  options: [],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'credentials',
    intro:
      'Create a VK user access token with the wall, photos and offline rights (for a community wall, as one of its administrators), and name the wall: leave it empty for your own, or enter -<community id>.',
    fields: [
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
      {
        name: 'platformAccountId',
        label: 'Wall',
        type: 'text',
        placeholder: '-123456',
        help: 'Empty for your own wall; a community’s id with a minus sign for its wall.',
        required: false,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/vk.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
