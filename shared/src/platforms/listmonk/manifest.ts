import { codePointLength } from '../../text.ts';
import { longFormParts, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';

/** The contract's subject limit for Listmonk (section C): 2000 characters, as Listmonk checks it. */
export const listmonkSubjectRules: TitleRules = {
  platform: 'Listmonk',
  maxLength: 2000,
  unit: 'characters',
  count: codePointLength,
};

export const listmonkMaxImages = 10;

/** Browser-safe: counts the subject (the `subject` option, else the first line) as validation does. */
export const listmonkManifest: PlatformManifest = {
  id: 'listmonk',
  name: 'Listmonk',
  icon: svgIcon(
    'M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm.8 2v.4l8.2 5.4 8.2-5.4V7L12 12.3Z',
  ),
  color: '#0055d4',
  text: {
    limit: listmonkSubjectRules.maxLength,
    unit: 'subject characters',
    count({ message, options }) {
      const subject = typeof options.subject === 'string' ? options.subject : undefined;
      return {
        used: listmonkSubjectRules.count(longFormParts(message, subject).title),
        limit: listmonkSubjectRules.maxLength,
        unit: 'subject characters',
      };
    },
  },
  media: {
    required: false,
    maxItems: listmonkMaxImages,
    kinds: ['image', 'gif'],
    summary: `Up to ${listmonkMaxImages} images, uploaded to Listmonk's media library: the first above the text, the others after it`,
  },
  options: [
    {
      name: 'subject',
      label: 'Subject',
      type: 'text',
      help: "Leave empty to use the message's first line as the subject.",
    },
    {
      name: 'draft',
      label: 'Status',
      type: 'select',
      placeholder: 'Send',
      choices: [
        { value: 'false', label: 'Send the campaign' },
        { value: 'true', label: 'Leave it a draft' },
      ],
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: 1000 } },
  connect: {
    method: 'credentials',
    intro:
      'In Listmonk (v4 or later), open Admin → Users, create a user of type "API" with a role that may manage campaigns and media and read the list, and copy its token.',
    fields: [
      {
        name: 'baseUrl',
        label: 'Listmonk URL',
        type: 'url',
        placeholder: 'https://lists.example.com',
        required: true,
        transform: 'https-url',
      },
      { name: 'username', label: 'API user', type: 'text', required: true },
      { name: 'apiToken', label: 'API token', type: 'password', required: true },
      {
        name: 'list',
        label: 'List',
        type: 'text',
        placeholder: '3 or Newsletter',
        help: 'The list’s id or its name.',
        required: true,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/listmonk.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
