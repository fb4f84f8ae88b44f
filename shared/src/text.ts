/** Length as JavaScript and Telegram count it: UTF-16 code units (an emoji is usually 2). */
export function utf16Length(text: string): number {
  return text.length;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** User-perceived characters, as Bluesky counts them (a family emoji is 1). */
export function graphemeLength(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** Unicode code points, as Python- and Ruby-backed APIs count "characters" (Discord, YouTube titles). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
