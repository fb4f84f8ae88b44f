import { type PlatformManifest, svgIcon } from '../manifest.ts';
import {
  maxAltTextLength,
  maxDescriptionLength,
  maxImages,
  maxTitleLength,
  pinterestLength,
} from './limits.ts';

/** Browser-safe description of Pinterest: the counter counts the description as validation does. */
export const pinterestManifest: PlatformManifest = {
  id: 'pinterest',
  name: 'Pinterest',
  icon: svgIcon(
    'M12 2a10 10 0 0 0-3.6 19.3c-.1-.8-.2-2 0-2.9l1.2-5s-.3-.6-.3-1.5c0-1.4.8-2.4 1.8-2.4.8 0 1.2.6 1.2 1.4 0 .8-.5 2.1-.8 3.3-.2 1 .5 1.8 1.5 1.8 1.8 0 3.2-1.9 3.2-4.7 0-2.4-1.8-4.2-4.3-4.2-2.9 0-4.6 2.2-4.6 4.4 0 .9.3 1.8.8 2.3.1.1.1.2.1.3l-.3 1.2c0 .2-.2.3-.4.2-1.3-.6-2.1-2.5-2.1-4 0-3.3 2.4-6.3 6.9-6.3 3.6 0 6.4 2.6 6.4 6 0 3.6-2.3 6.5-5.4 6.5-1.1 0-2.1-.6-2.4-1.2l-.7 2.5c-.2.9-.9 2.1-1.3 2.8A10 10 0 1 0 12 2z',
  ),
  color: '#e60023',
  text: {
    limit: maxDescriptionLength,
    unit: 'characters of description',
    count: ({ message }) => ({
      used: pinterestLength(message),
      limit: maxDescriptionLength,
      unit: 'characters',
    }),
  },
  media: {
    required: true,
    maxItems: maxImages,
    kinds: ['image', 'video'],
    summary: `One image or video, or a carousel of 2 to ${maxImages} images`,
  },
  options: [
    { name: 'title', label: 'Title', type: 'text', help: `Up to ${maxTitleLength} characters.` },
    { name: 'link', label: 'Link', type: 'text', placeholder: 'https://', help: 'Where the pin leads.' },
    {
      name: 'boardSectionId',
      label: 'Board section',
      type: 'select',
      // The board is the account itself, so the sections offered are those of the account's board.
      choicesFrom: {},
      help: 'A section of the board; leave empty for the board itself.',
    },
  ],
  features: { thread: false, firstComment: false, altText: { maxLength: maxAltTextLength } },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/pinterest',
    requiredEnv: ['PINTEREST_APP_ID', 'PINTEREST_APP_SECRET'],
    intro: 'Sign in with Pinterest, then pick the boards Postwave may pin to.',
  },
  docs: 'docs/platforms/pinterest.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
