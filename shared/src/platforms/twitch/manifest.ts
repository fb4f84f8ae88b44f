import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxMessageLength } from './limits.ts';

/** Browser-safe: counts code points against 500, as `validateTwitchMessage` does. */
export const twitchManifest: PlatformManifest = {
  id: 'twitch',
  name: 'Twitch',
  icon: svgIcon(
    'M4.3 2 3 5.4v14h4.7V22h2.7l2.6-2.6h3.9l5.2-5.2V2H4.3Zm15.9 11.3-3 3h-4.8l-2.6 2.6v-2.6H5.8V3.8h14.4v9.5ZM17.2 7v5.3h-1.8V7h1.8Zm-4.8 0v5.3h-1.8V7h1.8Z',
  ),
  color: '#9146ff',
  text: {
    limit: maxMessageLength,
    unit: 'characters (code points)',
    count: ({ message }) => ({ used: codePointLength(message), limit: maxMessageLength, unit: 'characters' }),
  },
  media: { required: false, maxItems: 0, kinds: [], summary: 'Text only' },
  options: [],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/twitch',
    requiredEnv: ['TWITCH_CLIENT_ID', 'TWITCH_CLIENT_SECRET'],
    intro: 'Sign in with Twitch as the broadcaster and allow Postwave to send chat messages in your channel.',
  },
  docs: 'docs/platforms/twitch.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
