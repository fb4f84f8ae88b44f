import type { CountInput } from '@postwave/shared/platforms/manifest';
import { countFor } from '#components/lib/platforms.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Splits a message where its platform's limit falls: the longest start (whole graphemes) that the
 * platform's own counter accepts, and the rest that would not fit. Counting is monotonic in the
 * prefix, so a binary search over grapheme boundaries finds the cut with few counts.
 */
export function splitAtLimit(platform: string, input: CountInput): { fits: string; overflow: string } {
  const whole = countFor(platform, input);
  if (!whole || whole.used <= whole.limit) return { fits: input.message, overflow: '' };
  const ends = [0, ...Array.from(segmenter.segment(input.message), (s) => s.index + s.segment.length)];
  let low = 0;
  let high = ends.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const count = countFor(platform, { ...input, message: input.message.slice(0, ends[mid]) });
    if (count && count.used <= count.limit) low = mid;
    else high = mid - 1;
  }
  const cut = ends[low] ?? 0;
  return { fits: input.message.slice(0, cut), overflow: input.message.slice(cut) };
}

/** The first http(s) URL in a message, without the punctuation that usually follows a link in prose. */
export function firstUrl(message: string): string | undefined {
  const match = /\bhttps?:\/\/[^\s<>"'`]+/i.exec(message);
  if (!match) return undefined;
  let url = match[0];
  while (/[.,;:!?)\]}'"]$/.test(url)) {
    // Keep a closing parenthesis that closes one opened inside the URL (Wikipedia-style links).
    if (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) >= (url.match(/\)/g)?.length ?? 0)) break;
    url = url.slice(0, -1);
  }
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}
