import { codePointLength } from '../../text.ts';
import { type PlatformManifest, svgIcon } from '../manifest.ts';
import { maxCouponCodeLength, maxEventTitleLength, maxSummaryLength } from './limits.ts';

const eventOrOffer = { field: 'topicType', equals: ['EVENT', 'OFFER'] };
const offerOnly = { field: 'topicType', equals: 'OFFER' };

/** Browser-safe: counts the summary (the message) in characters, as `validateGoogleBusinessPost` does. */
export const googleBusinessManifest: PlatformManifest = {
  id: 'google_business',
  name: 'Google Business Profile',
  icon: svgIcon(
    'M3 4h18l1 5a3 3 0 0 1-5 2.2A3 3 0 0 1 12 11a3 3 0 0 1-5 .2A3 3 0 0 1 2 9l1-5Zm1 9.5c1 .4 2.2.4 3.2 0V19h9.6v-5.5c1 .4 2.2.4 3.2 0V21H4v-7.5Z',
  ),
  color: '#4285f4',
  text: {
    limit: maxSummaryLength,
    unit: 'characters',
    count: ({ message }) => ({ used: codePointLength(message), limit: maxSummaryLength, unit: 'characters' }),
  },
  media: { required: false, maxItems: 1, kinds: ['image'], summary: 'One photo (JPEG or PNG, up to 5 MB)' },
  options: [
    {
      name: 'topicType',
      label: 'Post type',
      type: 'select',
      placeholder: 'Update (default)',
      choices: [
        { value: 'STANDARD', label: 'Update' },
        { value: 'EVENT', label: 'Event' },
        { value: 'OFFER', label: 'Offer' },
      ],
    },
    {
      name: 'event.title',
      label: 'Event or offer title',
      type: 'text',
      required: true,
      help: `Up to ${maxEventTitleLength} characters.`,
      showWhen: eventOrOffer,
    },
    { name: 'event.start', label: 'Starts', type: 'datetime', required: true, showWhen: eventOrOffer },
    { name: 'event.end', label: 'Ends', type: 'datetime', required: true, showWhen: eventOrOffer },
    {
      name: 'offer.couponCode',
      label: 'Coupon code',
      type: 'text',
      help: `Up to ${maxCouponCodeLength} characters.`,
      showWhen: offerOnly,
    },
    {
      name: 'offer.redeemUrl',
      label: 'Redeem online at',
      type: 'text',
      placeholder: 'https://',
      showWhen: offerOnly,
    },
    { name: 'offer.terms', label: 'Terms and conditions', type: 'textarea', showWhen: offerOnly },
    {
      name: 'callToAction.actionType',
      label: 'Button',
      type: 'select',
      placeholder: 'No button',
      // Offers carry their own redeem link; Google ignores a button on them.
      showWhen: { field: 'topicType', equals: ['STANDARD', 'EVENT', false] },
      choices: [
        { value: 'LEARN_MORE', label: 'Learn more' },
        { value: 'BOOK', label: 'Book' },
        { value: 'ORDER', label: 'Order online' },
        { value: 'SHOP', label: 'Buy' },
        { value: 'SIGN_UP', label: 'Sign up' },
        { value: 'CALL', label: 'Call now (the location phone)' },
      ],
    },
    {
      name: 'callToAction.url',
      label: 'Button link',
      type: 'text',
      required: true,
      placeholder: 'https://',
      showWhen: {
        field: 'callToAction.actionType',
        equals: ['LEARN_MORE', 'BOOK', 'ORDER', 'SHOP', 'SIGN_UP'],
      },
    },
  ],
  features: { thread: false, firstComment: false, altText: null },
  connect: {
    method: 'oauth',
    startPath: '/api/v1/accounts/connect/google_business',
    requiredEnv: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    intro: 'Sign in with a Google account that manages the business, then pick its locations.',
    buttonLabel: 'Connect with Google',
  },
  docs: 'docs/platforms/google_business.md',
  // No metrics endpoint this platform offers is collected yet (docs/analytics.md).
  analytics: { post: [], account: [] },
};
