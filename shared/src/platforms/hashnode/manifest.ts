import { codePointLength } from '../../text.ts';
import { longFormMediaRules, longFormTextRules, longFormTitleField, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { hashnodeMaxSubtitle, hashnodeMaxTags } from './options.ts';

/** The contract's title limit for Hashnode (section C): 250 characters (code points). */
export const hashnodeTitleRules: TitleRules = {
  platform: 'Hashnode',
  maxLength: 250,
  unit: 'characters',
  count: codePointLength,
};

export const hashnodeMaxImages = 10;

/** Browser-safe: counts the title as `validateHashnodePost` does. */
export const hashnodeManifest: PlatformManifest = {
  id: 'hashnode',
  name: 'Hashnode',
  icon: svgIcon(
    'M3.4 8.6a3.7 3.7 0 0 0 0 6.8l5.2 5.2a3.7 3.7 0 0 0 6.8 0l5.2-5.2a3.7 3.7 0 0 0 0-6.8l-5.2-5.2a3.7 3.7 0 0 0-6.8 0ZM12 8.6a3.4 3.4 0 1 1 0 6.8 3.4 3.4 0 0 1 0-6.8Z',
  ),
  color: '#2962ff',
  text: longFormTextRules(hashnodeTitleRules),
  media: longFormMediaRules(hashnodeMaxImages, 'cover image'),
  options: [
    longFormTitleField,
    {
      name: 'subtitle',
      label: 'Subtitle',
      type: 'text',
      help: `Up to ${hashnodeMaxSubtitle} characters, shown under the title.`,
    },
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'javascript, web development',
      help: `Up to ${hashnodeMaxTags}.`,
    },
    {
      name: 'canonicalUrl',
      label: 'Canonical URL',
      type: 'text',
      placeholder: 'https://blog.example.com/original-post',
      help: 'Where the article first appeared.',
    },
    {
      name: 'draft',
      label: 'Status',
      type: 'select',
      placeholder: 'Publish',
      choices: [
        { value: 'false', label: 'Publish' },
        { value: 'true', label: 'Save as draft' },
      ],
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: 1000 } },
  connect: {
    method: 'credentials',
    intro:
      'On Hashnode, open Account settings → Developer, generate a Personal Access Token and copy it. Writing through the API needs the publication’s Pro plan.',
    fields: [
      { name: 'personalAccessToken', label: 'Personal Access Token', type: 'password', required: true },
      {
        name: 'publication',
        label: 'Publication',
        type: 'text',
        placeholder: 'blog.example.com or the publication id',
        help: 'Empty: your first publication.',
        required: false,
        target: 'platformAccountId',
      },
    ],
  },
  docs: 'docs/platforms/hashnode.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
