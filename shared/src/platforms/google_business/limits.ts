/** Local posts (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts). */
export const maxSummaryLength = 1500;
/** What the Business Profile editor allows for an event's or offer's title and a coupon code. */
export const maxEventTitleLength = 58;
export const maxCouponCodeLength = 58;
export const maxTermsLength = 5000;
export const photoTypes = ['image/jpeg', 'image/png'] as const;
/** Google's photo rules for posts: JPG or PNG, 10 KB to 5 MB. */
export const maxPhotoBytes = 5 * 1024 * 1024;
export const minPhotoBytes = 10 * 1024;
export const topicTypes = ['STANDARD', 'EVENT', 'OFFER'] as const;
/** `callToAction.actionType`; CALL uses the location's phone number and takes no URL. */
export const actionTypes = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
