import { graphemeLength, utf8Length } from '../../text.ts';

/** A facet's range in the post text, in UTF-8 bytes as the AT Protocol requires (not JS string indices). */
export interface ByteSlice {
  byteStart: number;
  byteEnd: number;
}

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: ByteSlice;
  features: FacetFeature[];
}

/** What the text alone tells us; mentions still need their handle resolved to a DID. */
export type DetectedFacet =
  | { kind: 'link'; index: ByteSlice; uri: string }
  | { kind: 'mention'; index: ByteSlice; handle: string }
  | { kind: 'tag'; index: ByteSlice; tag: string };

// Links need an explicit scheme: guessing bare domains needs the full TLD list and would
// turn file names like "report.pdf" into links.
const linkPattern = /(^|[\s(])(https?:\/\/[^\s]+)/giu;
const mentionPattern = /(^|[\s(])(@[a-z0-9][a-z0-9.-]*[a-z0-9])/giu;
// Invisible separators (soft hyphen, zero-width joiners and spaces) end a tag, as in Bluesky's clients.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists separate invisible characters on purpose
const tagPattern = /(^|\s)([#＃][^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]+)/gu;
const handleSegment = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const maxTagGraphemes = 64;

/**
 * Finds links, mentions and hashtags the way Bluesky's own clients do, so a post made here
 * renders like one made in the app.
 */
export function detectFacets(text: string): DetectedFacet[] {
  const found: DetectedFacet[] = [];
  const slice = (start: number, end: number): ByteSlice => ({
    byteStart: utf8Length(text.slice(0, start)),
    byteEnd: utf8Length(text.slice(0, end)),
  });

  for (const match of text.matchAll(linkPattern)) {
    const start = match.index + match[1]!.length;
    const uri = trimLinkEnd(match[2]!);
    if (!isHttpUrl(uri)) continue;
    found.push({ kind: 'link', index: slice(start, start + uri.length), uri });
  }
  for (const match of text.matchAll(mentionPattern)) {
    const start = match.index + match[1]!.length;
    const handle = match[2]!.slice(1).toLowerCase();
    if (!isValidHandle(handle)) continue;
    found.push({ kind: 'mention', index: slice(start, start + match[2]!.length), handle });
  }
  for (const match of text.matchAll(tagPattern)) {
    const start = match.index + match[1]!.length;
    const raw = match[2]!.replace(/\p{P}+$/u, '');
    const tag = raw.slice(1);
    // "#️⃣" is a keycap emoji, and "#1" is a number, not a topic.
    if (!tag || tag.startsWith('\ufe0f') || /^\d+$/.test(tag)) continue;
    if (graphemeLength(tag) > maxTagGraphemes) continue;
    found.push({ kind: 'tag', index: slice(start, start + raw.length), tag });
  }
  return found.sort((a, b) => a.index.byteStart - b.index.byteStart);
}

/** Facets for the record: mentions whose handle resolves become mention facets; the rest stay plain text. */
export async function resolveFacets(
  detected: readonly DetectedFacet[],
  resolveHandle: (handle: string) => Promise<string | undefined>,
): Promise<Facet[]> {
  const handles = [...new Set(detected.flatMap((f) => (f.kind === 'mention' ? [f.handle] : [])))];
  const dids = new Map(await Promise.all(handles.map(async (h) => [h, await resolveHandle(h)] as const)));
  const facets: Facet[] = [];
  for (const facet of detected) {
    if (facet.kind === 'link') {
      facets.push({
        index: facet.index,
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: facet.uri }],
      });
    } else if (facet.kind === 'tag') {
      facets.push({
        index: facet.index,
        features: [{ $type: 'app.bsky.richtext.facet#tag', tag: facet.tag }],
      });
    } else {
      const did = dids.get(facet.handle);
      if (did) {
        facets.push({ index: facet.index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
      }
    }
  }
  return facets;
}

/** Sentence punctuation after a link belongs to the sentence, and so does a ")" the link did not open. */
function trimLinkEnd(uri: string): string {
  let result = uri.replace(/[.,;:!?"']+$/u, '');
  const count = (char: string) => result.split(char).length - 1;
  while (result.endsWith(')') && count(')') > count('(')) {
    result = result.slice(0, -1).replace(/[.,;:!?"']+$/u, '');
  }
  return result;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** Handle syntax from the AT Protocol spec: dot-separated DNS labels, at most 253 characters, TLD not numeric. */
export function isValidHandle(handle: string): boolean {
  if (handle.length > 253) return false;
  const labels = handle.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => handleSegment.test(label))) return false;
  return /^[a-z]/i.test(labels.at(-1)!);
}
