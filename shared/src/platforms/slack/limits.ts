/** Files on one message: Slack's composer allows 10 and files.completeUploadExternal shares them as one. */
export const maxAttachments = 10;
/** Slack's limit on alt text (`alt_txt` of files.getUploadURLExternal). */
export const maxAltTextLength = 1000;
