import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxAlbumItems, maxCaptionLength, maxTextLength } from './limits.ts';
import { visibleLength } from './visible-text.ts';

/** Browser-safe: counts exactly as `validateTelegramPost` does (visible UTF-16 units, caption limit with media). */
export const telegramManifest: PlatformManifest = {
  id: 'telegram',
  name: 'Telegram',
  icon: svgIcon(
    'M21.9 4.3 2.6 11.8c-1.1.4-1 1.9.1 2.2l4.8 1.5 1.9 5.7c.2.7 1.1.9 1.6.4l2.7-2.6 4.9 3.6c.7.5 1.6.1 1.8-.7l3.2-15.5c.2-1-.8-1.9-1.7-1.5Zm-12.3 10.3-.6 4.3-1.3-4 10-6.4-8.1 6.1Z',
  ),
  color: '#229ed9',
  text: {
    limit: maxTextLength,
    unit: 'UTF-16 characters of visible text',
    count({ message, hasMedia, options }) {
      const parseMode =
        options.parseMode === 'HTML' || options.parseMode === 'MarkdownV2' ? options.parseMode : undefined;
      return {
        used: visibleLength(message, parseMode),
        limit: hasMedia ? maxCaptionLength : maxTextLength,
        unit: hasMedia ? 'caption characters (UTF-16)' : 'characters (UTF-16)',
      };
    },
  },
  media: {
    required: false,
    maxItems: maxAlbumItems,
    kinds: ['image', 'gif', 'video', 'document'],
    summary: `Up to ${maxAlbumItems} photos or videos as an album, or one file; with media the text becomes a ${maxCaptionLength}-character caption`,
  },
  options: [
    {
      name: 'parseMode',
      label: 'Formatting',
      type: 'select',
      placeholder: 'Plain text',
      choices: [
        { value: 'HTML', label: 'HTML' },
        { value: 'MarkdownV2', label: 'MarkdownV2' },
      ],
    },
    { name: 'disableNotification', label: 'Send silently', type: 'boolean' },
    { name: 'protectContent', label: 'Forbid forwarding and saving', type: 'boolean' },
    {
      name: 'messageThreadId',
      label: 'Topic id',
      type: 'number',
      help: 'Only in forum supergroups: the topic to post into.',
    },
  ],
  features: { thread: true, firstComment: false, altText: null },
  connect: {
    method: 'credentials',
    intro: 'Create a bot with @BotFather, add it as an admin of your channel or group, then paste its token.',
    fields: [
      {
        name: 'botToken',
        label: 'Bot token',
        type: 'password',
        placeholder: '123456789:AA…',
        help: 'From @BotFather. Stored encrypted; never shown again.',
        required: true,
      },
      {
        name: 'chat',
        label: 'Channel or chat',
        type: 'text',
        placeholder: '@yourchannel or -1001234567890',
        help: 'The public @handle, or the numeric id of a private chat.',
        required: true,
        target: 'platformAccountId',
      },
    ],
  },
  analytics: { post: [], account: ['followers'] },
  docs: 'docs/platforms/telegram.md',
};
