import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { GoogleBusinessOptions } from './options.ts';
import { localDateTime } from './schedule.ts';

/** The `LocalPost` resource sent to `localPosts.create`. */
export function localPostBody(
  message: string,
  photo: MediaFile | undefined,
  options: GoogleBusinessOptions,
  timeZone: string,
): Record<string, unknown> {
  const topicType = options.topicType ?? 'STANDARD';
  const body: Record<string, unknown> = { topicType };
  if (message.trim()) body.summary = message;
  // Google fetches the photo from our public media URL.
  if (photo) body.media = [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }];
  const action = options.callToAction;
  if (action && topicType !== 'OFFER')
    body.callToAction = {
      actionType: action.actionType,
      ...(action.url && action.actionType !== 'CALL' ? { url: action.url } : {}),
    };
  if (topicType === 'EVENT' || topicType === 'OFFER') {
    const start = options.event?.start ? localDateTime(options.event.start, timeZone) : undefined;
    const end = options.event?.end ? localDateTime(options.event.end, timeZone) : undefined;
    if (!options.event?.title || !start || !end)
      throw new PlatformError('content_rejected', 'An event or offer needs a title, a start and an end');
    body.event = {
      title: options.event.title,
      schedule: {
        startDate: start.date,
        ...(start.time ? { startTime: start.time } : {}),
        endDate: end.date,
        ...(end.time ? { endTime: end.time } : {}),
      },
    };
  }
  if (topicType === 'OFFER' && options.offer) {
    const { couponCode, redeemUrl, terms } = options.offer;
    body.offer = {
      ...(couponCode ? { couponCode } : {}),
      ...(redeemUrl ? { redeemOnlineUrl: redeemUrl } : {}),
      ...(terms ? { termsConditions: terms } : {}),
    };
  }
  return body;
}
