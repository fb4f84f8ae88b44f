/** Lemmy's post title: 3 to 200 characters on one line (`is_valid_post_title`). Browser-safe. */
export const maxTitleLength = 200;
/** Lemmy's post body limit, in characters. */
export const maxBodyLength = 10_000;
/** Images go to the instance's pict-rs; the first can be the post's link, the others go in the body. */
export const maxImages = 10;
export const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/**
 * A community as an account or the `community` option names it: `name@instance`, `!name@instance`
 * or a local `name` (what `resolveCommunity` accepts, so a malformed option fails validation).
 */
export const communityPattern = /^!?[a-z0-9_]{1,255}(@[a-z0-9.-]+(:\d+)?)?$/i;
/** `GET /api/v3/community/list` answers up to 50 a page (Lemmy's fetch limit). */
export const communityPageSize = 50;
