import { codePointLength } from '../../text.ts';
import { longFormTextRules, longFormTitleField, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { mediumKeptTags, mediumMaxTags, mediumPublishStatuses } from './options.ts';

/** The contract's title limit for Medium (section C): 100 characters (code points). */
export const mediumTitleRules: TitleRules = {
  platform: 'Medium',
  maxLength: 100,
  unit: 'characters',
  count: codePointLength,
};

export const mediumMaxImages = 10;
/**
 * What `POST /v1/images` takes of what this service stores (Medium's API documentation lists
 * JPEG, PNG, GIF and TIFF; uploads here are never TIFF, and WebP is not on Medium's list).
 */
export const mediumImageTypes = ['image/jpeg', 'image/png', 'image/gif'] as const;

const statusLabels: Record<(typeof mediumPublishStatuses)[number], string> = {
  public: 'Public',
  draft: 'Draft',
  unlisted: 'Unlisted',
};

/** Browser-safe: counts the title as `validateMediumPost` does. */
export const mediumManifest: PlatformManifest = {
  id: 'medium',
  name: 'Medium',
  icon: svgIcon(
    'M6.8 6A6 6 0 1 1 6.8 18 6 6 0 0 1 6.8 6Zm9.6.4c1.7 0 3 2.5 3 5.6s-1.3 5.6-3 5.6-3-2.5-3-5.6 1.4-5.6 3-5.6Zm4.7.6c.6 0 1.1 2.2 1.1 5s-.5 5-1.1 5-1.1-2.2-1.1-5 .5-5 1.1-5Z',
  ),
  color: '#000000',
  text: longFormTextRules(mediumTitleRules),
  media: {
    required: false,
    maxItems: mediumMaxImages,
    kinds: ['image', 'gif'],
    summary: `Up to ${mediumMaxImages} images (JPEG, PNG, GIF), uploaded to Medium: the first under the title, the others after the text`,
  },
  options: [
    longFormTitleField,
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'writing, technology',
      help: `Up to ${mediumMaxTags}, each up to 25 characters; Medium keeps the first ${mediumKeptTags}.`,
    },
    {
      name: 'publishStatus',
      label: 'Status',
      type: 'select',
      placeholder: 'Public',
      choices: mediumPublishStatuses.map((value) => ({ value, label: statusLabels[value] })),
    },
    {
      name: 'canonicalUrl',
      label: 'Canonical URL',
      type: 'text',
      placeholder: 'https://blog.example.com/original-post',
      help: 'Where the story first appeared.',
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: 1000 } },
  connect: {
    method: 'credentials',
    intro:
      'On Medium, open Settings → Security and apps → Integration tokens, create a token named "Postwave" and copy it.',
    fields: [{ name: 'integrationToken', label: 'Integration token', type: 'password', required: true }],
  },
  docs: 'docs/platforms/medium.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
