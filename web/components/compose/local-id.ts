let counter = 0;

/** A composer-local id (media items, thread parts): unique within the page, never sent to the server. */
export const nextLocalId = () => `m${++counter}`;
