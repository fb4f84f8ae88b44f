const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const emoji = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const encoder = new TextEncoder();
const urlPattern = /\bhttps?:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+/giu;

/**
 * Characters as the Threads API counts them: one per character, except that an emoji counts
 * as its UTF-8 bytes (Threads documents "emojis are counted as the number of UTF-8 bytes"), so
 * 😀 counts 4 and a family emoji 25. Browser-safe; validation and the counter share it.
 */
export function threadsLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (emoji.test(segment)) length += encoder.encode(segment).length;
    else for (const _ of segment) length++;
  }
  return length;
}

/** Unique links in the text, as Threads counts them against its limit of 5. */
export function threadsLinks(text: string): string[] {
  const found = (text.match(urlPattern) ?? []).map((url) =>
    url.replace(/[.,;:!?'")\]]+$/u, '').toLowerCase(),
  );
  return [...new Set(found)];
}
