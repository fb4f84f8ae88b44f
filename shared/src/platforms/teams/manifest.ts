import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxCardBytes, messageBytes, teamsMessage } from './card.ts';
import { maxAltTextLength, maxImages } from './limits.ts';

/** Browser-safe: measures the card of the text as `validateTeamsPost` does (images add to it there). */
export const teamsManifest: PlatformManifest = {
  id: 'teams',
  name: 'Microsoft Teams',
  icon: svgIcon(
    'M2 5.5h12v13H2zM5 8.5v1.6h2.2V16h1.6v-5.9H11V8.5zM17 7a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM15.5 10.5H22v5a3 3 0 0 1-3 3h-1a2.5 2.5 0 0 1-2.5-2.5z',
  ),
  color: '#5059c9',
  text: {
    limit: maxCardBytes,
    unit: 'bytes of the card sent to Teams (text, title and card markup)',
    count: ({ message, options }) => ({
      used: messageBytes(
        teamsMessage(message, [], {
          title: typeof options.title === 'string' ? options.title.trim() : undefined,
          fullWidth: options.fullWidth === true,
        }),
      ),
      limit: maxCardBytes,
      unit: 'bytes',
    }),
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif'],
    summary: `Up to ${maxImages} PNG, JPEG or GIF images, shown in the card from their public URL`,
  },
  options: [
    { name: 'title', label: 'Card title', type: 'text', help: 'A bold heading above the text.' },
    { name: 'fullWidth', label: 'Full width', type: 'boolean', help: 'Show the card across the channel.' },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'credentials',
    intro:
      'In Teams, open the channel’s ••• menu → Workflows → “Post to a channel when a webhook request is received”, finish the flow and copy its URL.',
    fields: [
      {
        name: 'webhookUrl',
        label: 'Workflow webhook URL',
        type: 'password',
        placeholder: 'https://….logic.azure.com/workflows/…/paths/invoke?…&sig=…',
        required: true,
      },
      {
        name: 'channel',
        label: 'Channel name',
        type: 'text',
        placeholder: 'Marketing › General',
        help: 'How this channel is named in Postwave; Teams does not tell it to a webhook.',
        required: true,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/teams.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
