/** Lemmy's post title: 3 to 200 characters on one line (`is_valid_post_title`). Browser-safe. */
export const maxTitleLength = 200;
/** Lemmy's post body limit, in characters. */
export const maxBodyLength = 10_000;
/** Images go to the instance's pict-rs; the first can be the post's link, the others go in the body. */
export const maxImages = 10;
export const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
