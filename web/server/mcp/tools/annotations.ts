/*
 * The MCP tool annotation sets several tools share (what a client may assume before calling):
 * each tool's own set is written beside it when no shared one fits.
 */

/** Reads only; calling it again changes nothing. */
export const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Removes something of the user's for good (a post, a feed, a webhook); repeating it changes nothing more. */
export const destructiveIdempotent = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
