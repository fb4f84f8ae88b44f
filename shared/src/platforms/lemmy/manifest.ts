import { codePointLength } from '../../text.ts';
import { firstCommentField } from '../first-comment.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { splitPost } from './content.ts';
import { maxBodyLength, maxImages, maxTitleLength } from './limits.ts';

/**
 * Browser-safe: the counter shows the body (the message after its first line, or all of it with
 * the title option) against Lemmy's 10,000 characters, as `validateLemmyPost` counts it.
 */
export const lemmyManifest: PlatformManifest = {
  id: 'lemmy',
  name: 'Lemmy',
  icon: svgIcon(
    'M12 3C7.6 3 4.2 5.6 3.4 9.3 2 9.6 1 10.8 1 12.2c0 1.6 1.3 2.9 2.9 2.9h.3C5.6 18.6 8.5 21 12 21s6.4-2.4 7.8-5.9h.3c1.6 0 2.9-1.3 2.9-2.9 0-1.4-1-2.6-2.4-2.9C19.8 5.6 16.4 3 12 3Zm-3.5 8a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm7 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm-6.6 5.2h6.2c-.6 1.3-1.8 2.1-3.1 2.1s-2.5-.8-3.1-2.1Z',
  ),
  color: '#00bc8c',
  text: {
    limit: maxBodyLength,
    unit: 'characters of body (the first line is the title)',
    count: ({ message, options }) => ({
      used: codePointLength(
        splitPost(message, { title: typeof options.title === 'string' ? options.title : undefined }).body,
      ),
      limit: maxBodyLength,
      unit: 'characters (body)',
    }),
  },
  media: {
    required: false,
    maxItems: maxImages,
    kinds: ['image', 'gif'],
    summary: 'Images: the first becomes the post’s link (unless a link is set), the others go in the body',
  },
  options: [
    {
      name: 'community',
      label: 'Community',
      type: 'text',
      placeholder: 'The account’s community',
      help: 'Post to another community, as name@instance: one you are subscribed to, or any the instance can find.',
      // A community the user is not subscribed to can still be typed and posted to.
      choicesFrom: { allowCustom: true },
    },
    {
      name: 'title',
      label: 'Title',
      type: 'text',
      help: `Up to ${maxTitleLength} characters. Default: the first line of the message.`,
    },
    {
      name: 'url',
      label: 'Link',
      type: 'text',
      placeholder: 'https://…',
      help: 'The post’s link. Default: the first image.',
    },
    { name: 'nsfw', label: 'NSFW', type: 'boolean' },
    firstCommentField,
  ],
  features: { thread: false, firstComment: true, altText: { maxLength: 1000 } },
  connect: {
    method: 'credentials',
    intro:
      'Enter your Lemmy instance, user name and password (or a session token, for two-factor logins) and the community to post to, as name@instance.',
    fields: [
      {
        name: 'instanceUrl',
        label: 'Instance',
        type: 'url',
        placeholder: 'https://lemmy.world',
        required: true,
        transform: 'https-url',
      },
      { name: 'username', label: 'User name', type: 'text', required: true, transform: 'strip-at' },
      {
        name: 'password',
        label: 'Password',
        type: 'password',
        required: false,
        help: 'Or give a session token below.',
      },
      { name: 'jwt', label: 'Session token (jwt)', type: 'password', required: false },
      {
        name: 'platformAccountId',
        label: 'Community',
        type: 'text',
        placeholder: 'technology@lemmy.world',
        required: true,
        target: 'platformAccountId',
        transform: 'strip-at',
      },
    ],
  },
  analytics: { post: ['likes', 'comments'], account: ['followers'] },
  docs: 'docs/platforms/lemmy.md',
};
