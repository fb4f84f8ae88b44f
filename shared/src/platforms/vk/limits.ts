/** VK's wall post limits. Browser-safe. */
export const maxMessageLength = 16384;
/** Attachments per wall post. */
export const maxMedia = 10;
/** Photos through the wall upload server: JPG, PNG or GIF, up to 50 MB. */
export const photoTypes = ['image/jpeg', 'image/png', 'image/gif'];
export const maxPhotoBytes = 50 * 1024 * 1024;
/** The API version every call names. */
export const vkApiVersion = '5.199';
