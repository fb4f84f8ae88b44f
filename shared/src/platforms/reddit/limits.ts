/**
 * What `platformAccountId` must be (contract C: the subreddit name, no `r/`): a subreddit's name
 * (2 to 21 letters, digits or `_`; a few old ones have 2) or a user profile's `u_<username>`.
 */
export const subredditNamePattern = /^(?:u_[A-Za-z0-9_-]{3,20}|[A-Za-z0-9][A-Za-z0-9_]{1,20})$/;
/** Reddit's limits for a submission (https://www.reddit.com/dev/api#POST_api_submit). */
export const maxTitleLength = 300;
/** A self post's body (`text`), in characters. */
export const maxBodyLength = 40_000;
/** A flair's text the user writes on an editable flair. */
export const maxFlairTextLength = 64;
export const imageTypes = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const videoTypes = ['video/mp4', 'video/quicktime'] as const;
/** Reddit's documented upload limits: 20 MB per image, 1 GB per video. */
export const maxImageBytes = 20 * 1024 * 1024;
export const maxVideoBytes = 1024 * 1024 * 1024;
