import { remoteText } from '@postwave/shared';
import { Parser } from 'htmlparser2';
import type { LinkPreview } from './schema.ts';

type Tags = Partial<Record<'title' | 'description' | 'image' | 'siteName', string>>;

/** Meta tag names and properties in order of preference: Open Graph first, then Twitter, then plain HTML. */
const sources: Record<keyof Tags, string[]> = {
  title: ['og:title', 'twitter:title'],
  description: ['og:description', 'twitter:description', 'description'],
  image: ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'],
  siteName: ['og:site_name', 'application-name'],
};

/**
 * Reads the card fields from the start of an HTML document. Stops at `<body>`: the tags live in
 * the head, and a page's body can be large. Text is cleaned (control characters, length); the
 * image must resolve to an absolute http(s) URL against the page's address.
 */
export function parseLinkPreview(html: string, pageUrl: string): LinkPreview {
  const meta = new Map<string, string>();
  let titleText = '';
  let inTitle = false;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') done = true;
        if (done) return;
        if (name === 'title') inTitle = true;
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
        const content = attributes.content;
        if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
      },
      ontext(text) {
        if (inTitle && !done) titleText += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'head') done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const pick = (field: keyof Tags) => {
    for (const key of sources[field]) {
      const value = meta.get(key);
      if (value?.trim()) return value;
    }
    return undefined;
  };
  const preview: LinkPreview = { url: pageUrl };
  const title = remoteText(pick('title') ?? titleText, 200);
  const description = remoteText(pick('description'), 300);
  const siteName = remoteText(pick('siteName'), 100);
  const image = absoluteHttpUrl(pick('image'), pageUrl);
  if (title) preview.title = title;
  if (description) preview.description = description;
  if (siteName) preview.siteName = siteName;
  if (image) preview.image = image;
  return preview;
}

function absoluteHttpUrl(value: string | undefined, base: string): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.username || url.password) return undefined;
    return url.href.length <= 2048 ? url.href : undefined;
  } catch {
    return undefined;
  }
}
