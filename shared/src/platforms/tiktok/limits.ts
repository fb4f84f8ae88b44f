/** The Content Posting API's documented limits (browser-safe). */

/** A video's caption (`post_info.title`) and a photo post's text, in UTF-16 code units ("runes"). */
export const maxCaptionLength = 2200;
/** A photo post's `post_info.title`. */
export const maxPhotoTitleLength = 90;
/** Photos of one photo post. */
export const maxPhotos = 35;
export const maxPhotoBytes = 20 * 1024 * 1024;
export const maxVideoBytes = 4 * 1024 * 1024 * 1024;
/** TikTok takes photos as JPEG or WebP (no PNG) and videos as MP4, MOV or WebM. */
export const photoTypes: readonly string[] = ['image/jpeg', 'image/webp'];
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime', 'video/webm'];

/** FILE_UPLOAD chunks: at least 5 MB and at most 64 MB, the last one up to 128 MB; at most 1000. */
export const minChunkBytes = 5 * 1024 * 1024;
export const maxChunkBytes = 64_000_000;
export const maxFinalChunkBytes = 128_000_000;
export const maxChunkCount = 1000;

/** The privacy levels TikTok knows; each creator is offered some of them (`privacy_level_options`). */
export const privacyLevelLabels: Readonly<Record<string, string>> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};
