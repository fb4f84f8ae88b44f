/** Misskey's defaults, used for whatever an instance does not say. Browser-safe. */
export const defaultMaxNoteTextLength = 3000;
/** `notes/create` takes at most 16 `fileIds`. */
export const maxFiles = 16;
/** `cw` is at most 100 characters. */
export const maxContentWarningLength = 100;
/** A drive file's `comment` (alt text) is at most 512 characters. */
export const maxAltTextLength = 512;
export const misskeyVisibilities = ['public', 'home', 'followers'] as const;
