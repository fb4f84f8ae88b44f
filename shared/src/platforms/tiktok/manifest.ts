import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxCaptionLength, maxPhotos, maxPhotoTitleLength } from './limits.ts';

/** Browser-safe description of TikTok: the counter counts UTF-16 code units, as TikTok does. */
export const tiktokManifest: PlatformManifest = {
  id: 'tiktok',
  name: 'TikTok',
  icon: svgIcon(
    'M16.6 2h-3.4v13.4a2.9 2.9 0 1 1-2.9-2.9c.3 0 .6 0 .9.1V9.1a6.4 6.4 0 1 0 5.4 6.3V8.6a7.9 7.9 0 0 0 4.6 1.5V6.7A4.6 4.6 0 0 1 16.6 2z',
  ),
  color: '#000000',
  text: {
    limit: maxCaptionLength,
    unit: 'characters (UTF-16)',
    count: ({ message }) => ({ used: message.length, limit: maxCaptionLength, unit: 'characters' }),
  },
  media: {
    required: true,
    maxItems: maxPhotos,
    kinds: ['image', 'video'],
    summary: `One video (MP4, MOV, WebM), or 1 to ${maxPhotos} photos (JPEG, WebP)`,
  },
  options: [
    {
      name: 'privacyLevel',
      label: 'Who can view',
      type: 'select',
      required: true,
      choicesFrom: {},
      help: 'The levels this creator allows (TikTok asks for a choice every post). Apps TikTok has not audited may only post "Only me".',
    },
    { name: 'disableComment', label: 'Turn off comments', type: 'boolean' },
    { name: 'disableDuet', label: 'Turn off Duet', type: 'boolean', help: 'Videos only.' },
    { name: 'disableStitch', label: 'Turn off Stitch', type: 'boolean', help: 'Videos only.' },
    {
      name: 'title',
      label: 'Photo title',
      type: 'text',
      help: `Photo posts only, up to ${maxPhotoTitleLength} characters; the message is the description.`,
    },
  ],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/tiktok',
    requiredEnv: ['TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET'],
    intro: 'Sign in with TikTok and allow Postwave to read your profile and post videos and photos.',
  },
  docs: 'docs/platforms/tiktok.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
