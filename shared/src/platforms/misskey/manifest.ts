import { codePointLength } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import {
  defaultMaxNoteTextLength,
  maxAltTextLength,
  maxContentWarningLength,
  maxFiles,
  misskeyVisibilities,
} from './limits.ts';

const visibilityLabels: Record<(typeof misskeyVisibilities)[number], string> = {
  public: 'Public',
  home: 'Home (not on public timelines)',
  followers: 'Followers only',
};

/** Browser-safe: counts code points as `validateMisskeyNote` does, against Misskey's default 3000. */
export const misskeyManifest: PlatformManifest = {
  id: 'misskey',
  name: 'Misskey',
  icon: svgIcon(
    'M5.4 5C3.5 5 2 6.5 2 8.4v7.8c0 1 .8 1.8 1.8 1.8s1.8-.8 1.8-1.8v-4.1l2.3 2.8c.9 1.1 2.6 1.1 3.5 0l2.3-2.8v4.1c0 1 .8 1.8 1.8 1.8s1.8-.8 1.8-1.8V8.4C17.3 6.5 15.8 5 13.9 5c-1 0-2 .5-2.6 1.3L9.7 8.2 8 6.3C7.4 5.5 6.4 5 5.4 5Zm14.8 7.4a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6Z',
  ),
  color: '#86b300',
  text: {
    limit: defaultMaxNoteTextLength,
    unit: 'characters (Unicode code points)',
    count: ({ message }) => ({
      used: codePointLength(message),
      limit: defaultMaxNoteTextLength,
      unit: 'characters',
    }),
  },
  media: {
    required: false,
    maxItems: maxFiles,
    kinds: ['image', 'gif', 'video', 'document'],
    summary: `Up to ${maxFiles} files (images, videos, PDFs), uploaded to the account's drive`,
  },
  options: [
    {
      name: 'visibility',
      label: 'Visibility',
      type: 'select',
      placeholder: 'Public',
      choices: misskeyVisibilities.map((value) => ({ value, label: visibilityLabels[value] })),
    },
    {
      name: 'contentWarning',
      label: 'Content warning',
      type: 'text',
      help: `Shown before the text (up to ${maxContentWarningLength} characters).`,
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'credentials',
    intro:
      'In your server’s Settings → API, generate an access token with the permissions “Compose or delete notes”, “Access your Drive files and folders” and “View your account information”.',
    fields: [
      {
        name: 'instanceUrl',
        label: 'Server',
        type: 'url',
        placeholder: 'https://misskey.io',
        required: true,
        transform: 'https-url',
      },
      { name: 'accessToken', label: 'Access token', type: 'password', required: true },
    ],
  },
  analytics: { post: ['likes', 'comments', 'reposts'], account: ['followers'] },
  docs: 'docs/platforms/misskey.md',
};
