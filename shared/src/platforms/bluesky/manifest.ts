import { graphemeLength, utf8Length } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxGraphemes, maxImages, maxLangs, maxTextBytes } from './config.ts';

/** Browser-safe: counts graphemes (and UTF-8 bytes), as `validateBlueskyPost` does. */
export const blueskyManifest: PlatformManifest = {
  id: 'bluesky',
  name: 'Bluesky',
  icon: svgIcon(
    'M5.2 3.2C7.9 5.2 10.8 9.3 12 11.6c1.1-2.3 4.1-6.4 6.8-8.4 2-1.5 5.2-2.6 5.2 1 0 .7-.4 6.1-.7 7-.8 3-3.9 3.8-6.6 3.3 4.8.8 6 3.5 3.4 6.2-5 5.1-7.1-1.3-7.7-2.9L12 17l-.4.8c-.6 1.6-2.8 8-7.7 2.9-2.6-2.7-1.4-5.4 3.4-6.2-2.7.5-5.8-.3-6.6-3.3C.4 10.3 0 4.9 0 4.2c0-3.6 3.2-2.5 5.2-1Z',
  ),
  color: '#1185fe',
  text: {
    limit: maxGraphemes,
    unit: 'graphemes',
    count({ message }) {
      // The byte limit only bites for scripts of 3-4 bytes a grapheme; then it is the one to show.
      const bytes = utf8Length(message);
      if (bytes > maxTextBytes) return { used: bytes, limit: maxTextBytes, unit: 'bytes (UTF-8)' };
      return { used: graphemeLength(message), limit: maxGraphemes, unit: 'characters' };
    },
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif', 'video'],
    summary: `Up to ${maxImages} images, or one MP4 video`,
  },
  options: [
    {
      name: 'langs',
      label: 'Languages',
      type: 'tags',
      placeholder: 'en, de',
      help: `Languages of the text as BCP 47 tags, at most ${maxLangs}.`,
    },
    firstCommentField,
  ],
  features: { thread: true, firstComment: true, altText: { maxLength: 2000 } },
  connect: {
    method: 'credentials',
    intro: 'Use an app password (Settings → Privacy and security → App passwords), not your main password.',
    fields: [
      {
        name: 'identifier',
        label: 'Handle',
        type: 'text',
        placeholder: 'alice.bsky.social',
        required: true,
        transform: 'strip-at',
      },
      {
        name: 'appPassword',
        label: 'App password',
        type: 'password',
        placeholder: 'xxxx-xxxx-xxxx-xxxx',
        required: true,
      },
      {
        name: 'service',
        label: 'Server (optional)',
        type: 'url',
        placeholder: 'https://bsky.social',
        help: 'Only if your account lives on its own PDS.',
        required: false,
      },
    ],
  },
  analytics: { post: ['likes', 'comments', 'reposts', 'quotes'], account: ['followers'] },
  docs: 'docs/platforms/bluesky.md',
};
