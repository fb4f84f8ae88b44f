import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { mastodonLength } from './count.ts';
import { defaultInstanceLimits } from './limits.ts';
import { mastodonVisibilities } from './options.ts';

const { maxCharacters, charactersReservedPerUrl, maxMediaAttachments } = defaultInstanceLimits;

/**
 * Browser-safe: counts as `validateMastodonPost` does (content warning plus text, links as 23),
 * against Mastodon's default limits; validation then checks the account's own server's limits.
 */
export const mastodonManifest: PlatformManifest = {
  id: 'mastodon',
  name: 'Mastodon',
  icon: svgIcon(
    'M21.3 7.9c0-4.6-3-5.9-3-5.9C16.8 1.3 14.2 1 11.5 1h-.1C8.7 1 6.2 1.3 4.6 2c0 0-3 1.3-3 5.9v3.6c.1 4.5.8 9 5.1 10.1 2 .5 3.7.6 5 .5 2.5-.1 3.9-.9 3.9-.9l-.1-1.8s-1.8.6-3.8.5c-2 0-4.1-.2-4.4-2.6v-.7s2 .5 4.4.6c1.5.1 2.9-.1 4.3-.2 2.7-.3 5-2 5.3-3.5.5-2.4.4-5.8.4-5.8ZM17.7 13.9h-2.3V8.3c0-1.2-.5-1.8-1.5-1.8-1.1 0-1.7.7-1.7 2.1v3.1H9.9V8.6c0-1.4-.6-2.1-1.7-2.1-1 0-1.5.6-1.5 1.8v5.6H4.4V8.2c0-1.2.3-2.1.9-2.8.6-.7 1.5-1 2.5-1 1.2 0 2.1.5 2.7 1.4l.6 1 .6-1c.6-.9 1.5-1.4 2.7-1.4 1 0 1.9.3 2.5 1 .6.7.9 1.6.9 2.8v5.7Z',
  ),
  color: '#6364ff',
  text: {
    limit: maxCharacters,
    unit: `characters, links count ${charactersReservedPerUrl}`,
    count({ message, options }) {
      const spoilerText = typeof options.spoilerText === 'string' ? options.spoilerText : '';
      return {
        used: mastodonLength(message, spoilerText, charactersReservedPerUrl),
        limit: maxCharacters,
        unit: `characters (links count ${charactersReservedPerUrl})`,
      };
    },
  },
  media: {
    required: false,
    maxItems: maxMediaAttachments,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxMediaAttachments} images, or one video (the server may allow more)`,
  },
  options: [
    {
      name: 'visibility',
      label: 'Visibility',
      type: 'select',
      placeholder: 'Account default',
      choices: mastodonVisibilities.map((value) => ({
        value,
        label:
          value === 'private'
            ? 'Followers only'
            : value === 'direct'
              ? 'Mentioned people only'
              : value[0]!.toUpperCase() + value.slice(1),
      })),
    },
    {
      name: 'spoilerText',
      label: 'Content warning',
      type: 'text',
      help: 'Shown before the text; counts toward the character limit.',
    },
    { name: 'sensitive', label: 'Hide media behind a click', type: 'boolean' },
    {
      name: 'language',
      label: 'Language',
      type: 'text',
      placeholder: 'en',
      help: 'ISO 639 code of the text.',
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: 1500 } },
  connect: {
    method: 'credentials',
    intro:
      'In your server’s Preferences → Development, create an application with the write:statuses and write:media scopes and copy its access token.',
    fields: [
      {
        name: 'instanceUrl',
        label: 'Server',
        type: 'url',
        placeholder: 'https://mastodon.social',
        required: true,
        transform: 'https-url',
      },
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
    ],
  },
  analytics: { post: ['likes', 'comments', 'reposts'], account: ['followers'] },
  docs: 'docs/platforms/mastodon.md',
};
