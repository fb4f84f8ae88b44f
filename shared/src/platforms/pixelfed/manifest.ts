import { codePointLength } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { defaultPixelfedLimits, pixelfedVisibilities } from './limits.ts';

const { maxCharacters, maxMediaAttachments, descriptionLimit } = defaultPixelfedLimits;
const labels = { public: 'Public', unlisted: 'Unlisted', private: 'Followers only' } as const;

/**
 * Browser-safe: counts the caption as `validatePixelfedPost` does (code points, links in full)
 * against Pixelfed's defaults; validation then checks the account's own server's limits.
 */
export const pixelfedManifest: PlatformManifest = {
  id: 'pixelfed',
  name: 'Pixelfed',
  icon: svgIcon(
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.4 5.6h2.8a3.6 3.6 0 0 1 0 7.2h-2.6l-2 2.4v-6.5c0-1.7 0-3.1 1.8-3.1Z',
  ),
  color: '#6366f1',
  text: {
    limit: maxCharacters,
    unit: 'characters, links in full',
    count: ({ message }) => ({
      used: codePointLength(message),
      limit: maxCharacters,
      unit: 'characters (links count in full)',
    }),
  },
  media: {
    required: true,
    maxItems: maxMediaAttachments,
    kinds: ['image', 'gif', 'video'],
    summary: `A photo or video is required; albums of up to ${maxMediaAttachments} (the server may allow more)`,
  },
  options: [
    {
      name: 'visibility',
      label: 'Visibility',
      type: 'select',
      placeholder: 'Account default',
      choices: pixelfedVisibilities.map((value) => ({ value, label: labels[value] })),
    },
    { name: 'spoilerText', label: 'Content warning', type: 'text' },
    { name: 'sensitive', label: 'Hide media behind a click', type: 'boolean' },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: { maxLength: descriptionLimit } },
  connect: {
    method: 'credentials',
    intro:
      'On your Pixelfed server, open Settings → Applications → Personal access tokens, create a token with the read and write scopes and copy it.',
    fields: [
      {
        name: 'instanceUrl',
        label: 'Server',
        type: 'url',
        placeholder: 'https://pixelfed.social',
        required: true,
        transform: 'https-url',
      },
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
    ],
  },
  analytics: { post: ['likes', 'comments', 'reposts'], account: ['followers'] },
  docs: 'docs/platforms/pixelfed.md',
};
