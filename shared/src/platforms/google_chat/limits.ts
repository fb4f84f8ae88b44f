/** Images on one message (Postwave's cap; the 32,000 bytes bound the rest). */
export const maxImages = 10;
/** Image types a card's image widget shows. */
export const imageTypes = ['image/png', 'image/jpeg', 'image/gif'];
/** An image widget's alt text (Postwave's cap; Google documents none). */
export const maxAltTextLength = 1000;
