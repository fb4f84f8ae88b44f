import { utf8Length } from '../../text.ts';

/** Google Chat's limit on a message, its text and cards together. */
export const maxMessageBytes = 32_000;

export interface ChatImage {
  url: string;
  altText?: string | undefined;
}

/** The message's `cardsV2`: one card whose section shows each image by its public URL. */
export function imageCards(images: readonly ChatImage[]): object[] | undefined {
  if (images.length === 0) return undefined;
  return [
    {
      cardId: 'postwave-media',
      card: {
        sections: [
          {
            widgets: images.map((image) => ({
              image: { imageUrl: image.url, ...(image.altText ? { altText: image.altText } : {}) },
            })),
          },
        ],
      },
    },
  ];
}

/** Bytes of the text as Google Chat measures it (UTF-8). Browser-safe. */
export function textBytes(message: string): number {
  return utf8Length(message);
}

/** Bytes of the text and the cards together, what the 32,000-byte limit counts. */
export function messageBytes(message: string, cards: object[] | undefined): number {
  return textBytes(message) + (cards ? utf8Length(JSON.stringify(cards)) : 0);
}
