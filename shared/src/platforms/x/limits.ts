/** X's documented limits for a post created through `POST /2/tweets` (browser-safe). */
export const maxWeightedLength = 280;
export const maxImages = 4;
/** Images: 5 MB; animated GIFs: 15 MB; videos: 512 MB (media upload documentation). */
export const maxImageBytes = 5 * 1024 * 1024;
export const maxGifBytes = 15 * 1024 * 1024;
export const maxVideoBytes = 512 * 1024 * 1024;
export const imageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime'];

/** X documents alt text (`POST /2/media/metadata`) for images and GIFs. */
export function takesAltText(file: { kind: string }): boolean {
  return file.kind === 'image' || file.kind === 'gif';
}
