/** YouTube's documented limits for video metadata and thumbnails. */
export const maxTitleLength = 100;
export const maxDescriptionBytes = 5000;
/** Tags together, counting the commas between them and quotes around tags with spaces. */
export const maxTagsLength = 500;
export const maxThumbnailBytes = 2 * 1024 * 1024;
export const thumbnailTypes: readonly string[] = ['image/jpeg', 'image/png'];
/** 256 GB, YouTube's per-video maximum. */
export const maxVideoBytes = 256 * 1024 ** 3;
export const defaultCategoryId = '22';
