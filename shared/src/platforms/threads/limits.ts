/** The Threads API's documented limits for one post (browser-safe). */
export const maxTextLength = 500;
/** Posts with more unique links fail at container creation (THREADS_API__LINK_LIMIT_EXCEEDED). */
export const maxLinks = 5;
export const maxCarouselItems = 20;
export const minCarouselItems = 2;
export const maxImageBytes = 8 * 1024 * 1024;
export const maxVideoBytes = 1024 * 1024 * 1024;
export const imageTypes: readonly string[] = ['image/jpeg', 'image/png'];
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime'];
/** Threads profiles may publish this many posts through the API in a moving 24 hours. */
export const defaultDailyQuota = 250;
export const maxTopicTagLength = 50;
