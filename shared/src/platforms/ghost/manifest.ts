import { longFormMediaRules, longFormTextRules, longFormTitleField, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { ghostStatuses } from './options.ts';

/**
 * Ghost validates a title's length with validator.js's isLength: code points, not counting the
 * emoji presentation selectors (U+FE0E, U+FE0F).
 */
export function ghostLength(text: string): number {
  let count = 0;
  for (const char of text) if (char !== '\uFE0E' && char !== '\uFE0F') count++;
  return count;
}

export const ghostTitleRules: TitleRules = {
  platform: 'Ghost',
  maxLength: 255,
  unit: 'characters',
  count: ghostLength,
};

export const ghostMaxImages = 20;
/** Ghost's `feature_image_alt` column takes 191 characters. */
export const ghostMaxAltText = 191;

/** Browser-safe: counts the title as `validateGhostPost` does. */
export const ghostManifest: PlatformManifest = {
  id: 'ghost',
  name: 'Ghost',
  icon: svgIcon(
    'M12 2.5a7 7 0 0 0-7 7V21l2.3-1.6 2.4 1.6 2.3-1.6 2.3 1.6 2.4-1.6L19 21V9.5a7 7 0 0 0-7-7Zm-2.5 6a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6Zm5 0a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6Z',
  ),
  color: '#15171a',
  text: longFormTextRules(ghostTitleRules),
  media: longFormMediaRules(ghostMaxImages, 'feature image'),
  options: [
    longFormTitleField,
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      placeholder: 'Published',
      choices: ghostStatuses.map((value) => ({
        value,
        label: value === 'published' ? 'Published' : 'Draft',
      })),
    },
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'News, Product',
      help: 'Missing tags are created.',
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: ghostMaxAltText } },
  connect: {
    method: 'credentials',
    intro:
      'In Ghost Admin, open Settings → Integrations → Add custom integration, name it "Postwave", and copy its Admin API key and API URL.',
    fields: [
      {
        name: 'siteUrl',
        label: 'API URL',
        type: 'url',
        placeholder: 'https://blog.example.com',
        required: true,
        transform: 'https-url',
      },
      {
        name: 'adminApiKey',
        label: 'Admin API key',
        type: 'password',
        placeholder: '24 hex characters:64 hex characters',
        required: true,
      },
    ],
  },
  docs: 'docs/platforms/ghost.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
