import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { dribbbleMaxTags } from './options.ts';

/**
 * Dribbble documents no title length; titles are kept to 255 characters (a Rails string column),
 * so an overlong one is refused here rather than after the upload. Counted in code points.
 */
export const dribbbleMaxTitle = 255;
export const dribbbleTitleLength = codePointLength;

/** The contract's rule for a shot's image (section C): 400×300 up to 1600×1200, 4:3, PNG/JPEG/GIF, 8 MB. */
export const dribbbleImage = {
  minWidth: 400,
  minHeight: 300,
  maxWidth: 1600,
  maxHeight: 1200,
  maxBytes: 8 * 1024 * 1024,
  types: ['image/png', 'image/jpeg', 'image/gif'] as readonly string[],
};

/** Browser-safe: the counter counts the title option, as validation does. */
export const dribbbleManifest: PlatformManifest = {
  id: 'dribbble',
  name: 'Dribbble',
  icon: svgIcon(
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.6 4.6a8.4 8.4 0 0 1 1.8 5.2c-2.6-.5-5-.5-7.2-.1l-.6-1.4c2.4-1 4.5-2.2 6-3.7ZM12 3.6c2 0 3.9.7 5.4 1.9-1.4 1.4-3.3 2.5-5.6 3.4A43 43 0 0 0 8.7 4.3 8.4 8.4 0 0 1 12 3.6Zm-4.9 1.6c1.2 1.3 2.4 3 3.6 4.3-2.7.8-5.6 1.2-7 1.2a8.4 8.4 0 0 1 3.4-5.5ZM3.6 12v-.2c1.8 0 5-.4 7.9-1.3l.6 1.3c-3.3 1.1-6 3.3-7.4 5.6A8.4 8.4 0 0 1 3.6 12Zm2.2 6.6c1.2-2.2 3.6-4.2 6.8-5.2.8 2.2 1.4 4.6 1.8 7a8.4 8.4 0 0 1-8.6-1.8Zm10.2 1c-.4-2.3-1-4.5-1.7-6.5 1.9-.3 4-.2 6 .2a8.4 8.4 0 0 1-4.3 6.3Z',
  ),
  color: '#ea4c89',
  text: {
    limit: dribbbleMaxTitle,
    unit: 'title characters',
    count({ options }) {
      const title = typeof options.title === 'string' ? options.title.trim() : '';
      return { used: dribbbleTitleLength(title), limit: dribbbleMaxTitle, unit: 'title characters' };
    },
  },
  media: {
    required: true,
    maxItems: 1,
    kinds: ['image', 'gif'],
    summary: 'Exactly one image: PNG, JPEG or GIF, 400×300 up to 1600×1200 in 4:3, at most 8 MB',
  },
  options: [
    {
      name: 'title',
      label: 'Title',
      type: 'text',
      required: true,
      help: 'The message is the shot’s description.',
    },
    {
      name: 'tags',
      label: 'Tags',
      type: 'tags',
      placeholder: 'ui, illustration',
      help: `Up to ${dribbbleMaxTags}.`,
    },
  ],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/dribbble',
    requiredEnv: ['DRIBBBLE_CLIENT_ID', 'DRIBBBLE_CLIENT_SECRET'],
    intro: 'Sign in with Dribbble and allow Postwave to read your profile and upload shots.',
  },
  docs: 'docs/platforms/dribbble.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
