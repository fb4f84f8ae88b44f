import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import { accountIdIssue } from '../account-id.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import {
  maxCouponCodeLength,
  maxEventTitleLength,
  maxPhotoBytes,
  maxSummaryLength,
  maxTermsLength,
  minPhotoBytes,
  photoTypes,
} from './limits.ts';
import type { GoogleBusinessOptions } from './options.ts';
import { localDateTime, sortKey } from './schedule.ts';

/** `accounts/{a}/locations/{l}`: what `platformAccountId` must be (contract C). */
export const locationPattern = /^accounts\/[^/]+\/locations\/[^/]+$/;

/**
 * A local post's rules, checked before anything is sent: the summary's 1500 characters, one
 * JPEG or PNG photo, an event's or offer's title and period, a button's link. Required fields
 * (`event.title`, `event.start`, `event.end`, `callToAction.url`) are the manifest's.
 */
export function validateGoogleBusinessPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: GoogleBusinessOptions,
  timeZone: string,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [...mediaUrlWarnings(media, 'Google Business Profile')];
  const at = (name: string) => `accountOptions.${account.id}.${name}`;
  const id = accountIdIssue(
    account,
    locationPattern,
    'Google Business Profile',
    'accounts/{a}/locations/{l}',
  );
  if (id) errors.push(id);
  const topic = options.topicType ?? 'STANDARD';
  const length = codePointLength(post.message);
  if (length > maxSummaryLength)
    errors.push({
      code: 'text_too_long',
      message: `A Google Business Profile post holds up to ${maxSummaryLength} characters; this one has ${length}`,
      path: 'message',
    });
  if (topic === 'STANDARD' && post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'An update needs text or a photo', path: 'message' });
  if (media.length > 1)
    errors.push({
      code: 'too_many_media',
      message: `A Google Business Profile post takes one photo; this one has ${media.length}`,
      path: 'media',
    });
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    if (!(photoTypes as readonly string[]).includes(file.contentType))
      errors.push({
        code: 'media_type_unsupported',
        message: `Google Business Profile posts take a JPEG or PNG photo, not ${file.contentType}`,
        path,
      });
    else if (file.size > maxPhotoBytes)
      errors.push({ code: 'media_too_large', message: 'Google takes photos up to 5 MB', path });
    else if (file.size < minPhotoBytes)
      warnings.push({ code: 'media_too_small', message: 'Google may refuse a photo under 10 KB', path });
  });
  if (topic === 'EVENT' || topic === 'OFFER') {
    const title = options.event?.title ?? '';
    if (codePointLength(title) > maxEventTitleLength)
      errors.push({
        code: 'title_too_long',
        message: `An event or offer title holds up to ${maxEventTitleLength} characters`,
        path: at('event.title'),
      });
    const start = options.event?.start ? localDateTime(options.event.start, timeZone) : undefined;
    const end = options.event?.end ? localDateTime(options.event.end, timeZone) : undefined;
    if (options.event?.start && !start)
      errors.push({ code: 'invalid_option', message: 'The start is no valid date', path: at('event.start') });
    if (options.event?.end && !end)
      errors.push({ code: 'invalid_option', message: 'The end is no valid date', path: at('event.end') });
    if (start && end && sortKey(end, true) < sortKey(start, false))
      errors.push({
        code: 'event_ends_before_start',
        message: 'The end comes before the start',
        path: at('event.end'),
      });
  }
  if (topic === 'OFFER') {
    if (codePointLength(options.offer?.couponCode ?? '') > maxCouponCodeLength)
      errors.push({
        code: 'coupon_code_too_long',
        message: `A coupon code holds up to ${maxCouponCodeLength} characters`,
        path: at('offer.couponCode'),
      });
    if (codePointLength(options.offer?.terms ?? '') > maxTermsLength)
      errors.push({
        code: 'terms_too_long',
        message: `Terms hold up to ${maxTermsLength} characters`,
        path: at('offer.terms'),
      });
    if (options.callToAction)
      warnings.push({
        code: 'call_to_action_ignored',
        message:
          'Google shows no button on an offer (its redeem link serves instead); the button is not sent',
        path: at('callToAction'),
      });
  }
  const action = options.callToAction;
  if (action && topic !== 'OFFER' && action.actionType !== 'CALL' && !action.url)
    errors.push({
      code: 'option_required',
      message: 'Button link is required for Google Business Profile',
      path: at('callToAction.url'),
    });
  return { errors, warnings };
}
