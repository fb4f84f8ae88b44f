/** Files on one post, each sent as its own event (Matrix has no albums). */
export const maxMediaItems = 10;
/** Alt text goes in a media event's `body`; the spec sets no limit, this keeps events small. */
export const maxAltTextLength = 1000;
