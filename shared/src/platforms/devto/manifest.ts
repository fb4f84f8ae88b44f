import { codePointLength } from '../../text.ts';
import { longFormMediaRules, longFormTextRules, longFormTitleField, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { devtoMaxTags } from './options.ts';

/** Forem validates `title` with Rails' length check: at most 128 characters (code points). */
export const devtoTitleRules: TitleRules = {
  platform: 'Dev.to',
  maxLength: 128,
  unit: 'characters',
  count: codePointLength,
};

export const devtoMaxImages = 10;

/** Browser-safe: counts the title as `validateDevtoPost` does. */
export const devtoManifest: PlatformManifest = {
  id: 'devto',
  name: 'Dev.to',
  icon: svgIcon(
    'M2 5h20v14H2Zm1.5 1.5v11h17v-11ZM5 9h2a2 2 0 0 1 2 2v2a2 2 0 0 1-2 2H5Zm1.3 1.3v3.4H7a.7.7 0 0 0 .7-.7v-2a.7.7 0 0 0-.7-.7ZM10 9h3.5v1.3h-2.2v1.1h2v1.3h-2v1.1h2.2V15H10Zm4.5 0h1.4l1.1 4.2L18.1 9h1.4l-1.8 6h-1.4Z',
  ),
  color: '#0a0a0a',
  text: longFormTextRules(devtoTitleRules),
  media: longFormMediaRules(devtoMaxImages, 'cover image'),
  options: [
    longFormTitleField,
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'javascript, webdev',
      help: `Up to ${devtoMaxTags}; letters and digits only.`,
    },
    {
      // A select, not a checkbox: the default is to publish, and an unticked box could not say "draft".
      name: 'published',
      label: 'Status',
      type: 'select',
      placeholder: 'Publish',
      choices: [
        { value: 'true', label: 'Publish' },
        { value: 'false', label: 'Save as draft' },
      ],
    },
    {
      name: 'canonicalUrl',
      label: 'Canonical URL',
      type: 'text',
      placeholder: 'https://blog.example.com/original-post',
      help: 'Where the article first appeared.',
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: 1000 } },
  connect: {
    method: 'credentials',
    intro:
      'On Dev.to, open Settings → Extensions, generate a DEV Community API key named "Postwave" and copy it.',
    fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true }],
  },
  analytics: { post: ['views', 'likes', 'comments'], account: [] },
  docs: 'docs/platforms/devto.md',
};
