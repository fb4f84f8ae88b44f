import twitterText from 'twitter-text';

/** A link found in a text: where it is (UTF-16 offsets, as `String.slice` takes them). */
export interface FoundLink {
  url: string;
  start: number;
  end: number;
}

/**
 * The http(s) links of a text, as twitter-text finds them (the same finder X counts URLs with:
 * trailing punctuation and closing brackets are not part of the link). Links without a scheme
 * (`example.com`) and other schemes (`mailto:`, `ftp:`) are left alone: only what a reader's
 * client would open as a web link is tracked.
 */
export function findLinks(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  let from = 0;
  for (const entity of twitterText.extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: false })) {
    if (!/^https?:\/\//i.test(entity.url)) continue;
    const [start, end] = entity.indices;
    // twitter-text's offsets are UTF-16 ones; should a version count otherwise, search instead.
    const at = text.slice(start, end) === entity.url ? start : text.indexOf(entity.url, from);
    if (at === -1) continue;
    found.push({ url: entity.url, start: at, end: at + entity.url.length });
    from = at + entity.url.length;
  }
  return found;
}

/** The text with each link replaced by what `replace` answers for it (others left as they are). */
export function replaceLinks(
  text: string,
  links: readonly FoundLink[],
  replace: (url: string) => string,
): string {
  let out = '';
  let last = 0;
  for (const link of links) {
    out += text.slice(last, link.start) + replace(link.url);
    last = link.end;
  }
  return out + text.slice(last);
}
