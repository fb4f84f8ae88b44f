import { utf8Length } from '../../text.ts';
import { longFormMediaRules, longFormTextRules, longFormTitleField, type TitleRules } from '../long-form.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { wordpressStatuses } from './options.ts';

/** WordPress stores a title in a TEXT column: 65,535 bytes, its only limit. */
export const wordpressTitleRules: TitleRules = {
  platform: 'WordPress',
  maxLength: 65_535,
  unit: 'bytes (UTF-8)',
  count: utf8Length,
};

/** How many images one post may carry here (uploaded one by one to the media library). */
export const wordpressMaxImages = 20;

/** Browser-safe: counts the title as `validateWordPressPost` does. */
export const wordpressManifest: PlatformManifest = {
  id: 'wordpress',
  name: 'WordPress',
  icon: svgIcon(
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17ZM5.6 8.2h1.7l1.8 6.2 1.8-6.2h1.6l1.8 6.2 1.8-6.2h1.7l-2.7 8.6h-1.5L12 10.9l-1.6 5.9H8.9Z',
  ),
  color: '#21759b',
  text: longFormTextRules(wordpressTitleRules),
  media: longFormMediaRules(wordpressMaxImages, 'featured image'),
  options: [
    longFormTitleField,
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      placeholder: 'Publish',
      choices: wordpressStatuses.map((value) => ({
        value,
        label: value === 'publish' ? 'Publish' : 'Save as draft',
      })),
    },
    {
      name: 'categories',
      label: 'Categories',
      type: 'tags',
      placeholder: 'News, Releases',
      help: 'Category names; one the site does not have yet is created.',
      choicesFrom: { allowCustom: true },
    },
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'launch, postwave',
      help: 'Tag names; missing tags are created.',
      choicesFrom: { allowCustom: true },
    },
    {
      name: 'excerpt',
      label: 'Excerpt',
      type: 'textarea',
      help: 'A short summary shown in post lists and feeds.',
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: 2000 } },
  connect: {
    method: 'credentials',
    intro:
      'In WordPress, open Users → Profile → Application Passwords, add one named "Postwave" and copy it. Your user needs the Author role or above to publish.',
    fields: [
      {
        name: 'siteUrl',
        label: 'Site address',
        type: 'url',
        placeholder: 'https://blog.example.com',
        required: true,
        transform: 'https-url',
      },
      { name: 'username', label: 'User name', type: 'text', required: true },
      {
        name: 'applicationPassword',
        label: 'Application password',
        type: 'password',
        placeholder: 'abcd efgh ijkl mnop qrst uvwx',
        required: true,
      },
    ],
  },
  analytics: { post: ['comments'], account: [] },
  docs: 'docs/platforms/wordpress.md',
};
