import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxAttachments, maxContentLength, maxUsernameLength } from './config.ts';

/** Browser-safe: counts code points, as `validateDiscordPost` does. */
export const discordManifest: PlatformManifest = {
  id: 'discord',
  name: 'Discord',
  icon: svgIcon(
    'M20.3 4.4A19.6 19.6 0 0 0 15.4 3l-.6 1.3a18.2 18.2 0 0 0-5.6 0L8.6 3a19.5 19.5 0 0 0-4.9 1.5C.6 9.1-.3 13.6.1 18.1a19.7 19.7 0 0 0 6 3l1.3-2.1a12.8 12.8 0 0 1-2-1l.5-.4a14 14 0 0 0 12.2 0l.5.4c-.6.4-1.3.7-2 1l1.3 2.1a19.6 19.6 0 0 0 6-3c.5-5.2-.9-9.7-3.6-13.7ZM8 15.3c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Zm8 0c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Z',
  ),
  color: '#5865f2',
  text: {
    limit: maxContentLength,
    unit: 'code points',
    count: ({ message }) => ({ used: codePointLength(message), limit: maxContentLength, unit: 'characters' }),
  },
  media: {
    required: false,
    maxItems: maxAttachments,
    kinds: ['image', 'gif', 'video', 'document'],
    summary: `Up to ${maxAttachments} files`,
  },
  options: [
    {
      name: 'username',
      label: 'Post as',
      type: 'text',
      placeholder: 'The webhook’s own name',
      help: `Name shown for this message, up to ${maxUsernameLength} characters.`,
    },
    { name: 'avatarUrl', label: 'Avatar URL', type: 'text', placeholder: 'https://…' },
    { name: 'threadId', label: 'Thread id', type: 'text', help: 'Post into this thread of the channel.' },
  ],
  features: { thread: true, firstComment: false, altText: { maxLength: 1024 } },
  connect: {
    method: 'credentials',
    intro: 'In the channel’s settings → Integrations → Webhooks, create a webhook and copy its URL.',
    fields: [
      {
        name: 'webhookUrl',
        label: 'Webhook URL',
        type: 'password',
        placeholder: 'https://discord.com/api/webhooks/…',
        required: true,
      },
    ],
  },
  // Webhooks read nothing back: Discord reports no figures to a webhook (contract section H).
  analytics: { post: [], account: [] },
  docs: 'docs/platforms/discord.md',
};
