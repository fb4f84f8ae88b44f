import { utf8Length } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxDescriptionBytes, maxTitleLength, thumbnailTypes } from './limits.ts';
import { videoDescription } from './metadata.ts';

/** Browser-safe: counts the description's UTF-8 bytes (the `description` option, else the message), as `validateYouTubePost` does. */
export const youTubeManifest: PlatformManifest = {
  id: 'youtube',
  name: 'YouTube',
  icon: svgIcon(
    'M23.5 6.2a3 3 0 0 0-2.1-2.1C19.5 3.6 12 3.6 12 3.6s-7.5 0-9.4.5A3 3 0 0 0 .5 6.2C0 8.1 0 12 0 12s0 3.9.5 5.8a3 3 0 0 0 2.1 2.1c1.9.5 9.4.5 9.4.5s7.5 0 9.4-.5a3 3 0 0 0 2.1-2.1c.5-1.9.5-5.8.5-5.8s0-3.9-.5-5.8ZM9.6 15.6V8.4l6.2 3.6-6.2 3.6Z',
  ),
  color: '#ff0033',
  text: {
    limit: maxDescriptionBytes,
    unit: 'description bytes (UTF-8)',
    count({ message, options }) {
      const description = typeof options.description === 'string' ? options.description : undefined;
      return {
        used: utf8Length(videoDescription({ message }, { description })),
        limit: maxDescriptionBytes,
        unit: 'description bytes',
      };
    },
  },
  media: { required: true, maxItems: 1, kinds: ['video'], summary: 'Exactly one video' },
  options: [
    {
      name: 'title',
      label: 'Video title',
      type: 'text',
      placeholder: 'Defaults to the first line of the message',
      help: `Up to ${maxTitleLength} characters, no < or >.`,
    },
    {
      name: 'privacyStatus',
      label: 'Visibility',
      type: 'select',
      placeholder: 'Default (public)',
      choices: [
        { value: 'public', label: 'Public' },
        { value: 'unlisted', label: 'Unlisted' },
        { value: 'private', label: 'Private' },
      ],
    },
    {
      name: 'categoryId',
      label: 'Category',
      type: 'select',
      placeholder: 'Default (People & Blogs)',
      help: 'The categories YouTube lets this channel’s videos use.',
      choicesFrom: {},
    },
    { name: 'tags', label: 'Tags', type: 'tags', placeholder: 'launch, demo' },
    { name: 'madeForKids', label: 'Made for kids', type: 'boolean' },
    {
      name: 'thumbnailUrl',
      label: 'Custom thumbnail',
      type: 'media',
      accept: ['image'],
      contentTypes: [...thumbnailTypes],
      help: 'JPEG or PNG, up to 2 MB.',
    },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/youtube',
    requiredEnv: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    intro: 'Sign in with the Google account that owns the channel and allow uploads.',
    buttonLabel: 'Connect with Google',
  },
  analytics: { post: ['views', 'likes', 'comments'], account: ['followers'] },
  docs: 'docs/platforms/youtube.md',
};
