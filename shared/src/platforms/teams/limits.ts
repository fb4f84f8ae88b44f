/** Images on one card (Postwave's cap; the card's 28 KB bound the rest). */
export const maxImages = 10;
/** Image types Teams renders in Adaptive Cards. */
export const imageTypes = ['image/png', 'image/jpeg', 'image/gif'];
/** An Image element's alt text (Postwave's cap; Adaptive Cards set none). */
export const maxAltTextLength = 1000;
