import { parseFeed } from 'feedsmith';

/** A feed entry as a template sees it, whatever the feed's format. */
export interface FeedItem {
  /** guid / id, else the link: what deduplication keys on. */
  id: string;
  title: string;
  link: string;
  summary: string;
}

/** Summaries are plain text and short: a post is not the article. */
const maxSummary = 500;

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value)
    return text((value as { value: unknown }).value);
  return '';
};

/** HTML to plain text: tags dropped, the common entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  const decoded = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
  return decoded
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function shorten(value: string, max: number): string {
  const chars = [...value];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : value;
}

function item(id: string, title: string, link: string, summary: string): FeedItem | undefined {
  const key = (id || link).trim();
  if (!key) return undefined;
  return {
    id: key.slice(0, 2000),
    title: plainText(title),
    link: link.trim(),
    summary: shorten(plainText(summary), maxSummary),
  };
}

/** Parses RSS, Atom, RDF or JSON Feed (feedsmith); items oldest first (feeds list newest first). */
export function feedItems(body: string): FeedItem[] {
  const parsed = parseFeed(body);
  const items: (FeedItem | undefined)[] = [];
  switch (parsed.format) {
    case 'rss':
      for (const i of parsed.feed.items ?? [])
        items.push(
          item(text(i.guid), text(i.title), text(i.link), text(i.description) || text(i.content?.encoded)),
        );
      break;
    case 'atom':
      for (const e of parsed.feed.entries ?? []) {
        const link = e.links?.find((l) => !l.rel || l.rel === 'alternate')?.href ?? e.links?.[0]?.href ?? '';
        items.push(item(text(e.id), text(e.title), link, text(e.summary) || text(e.content)));
      }
      break;
    case 'rdf':
      for (const i of parsed.feed.items ?? [])
        items.push(item('', text(i.title), text(i.link), text(i.description)));
      break;
    case 'json':
      for (const i of parsed.feed.items ?? [])
        items.push(
          item(
            text(i.id),
            text(i.title),
            text(i.url),
            text(i.summary) || text(i.content_text) || text(i.content_html),
          ),
        );
      break;
  }
  return items.filter((i): i is FeedItem => i !== undefined).reverse();
}

/** `{{title}}`, `{{link}}`, `{{summary}}` (spaces inside the braces allowed); unknown names stay. */
export function renderTemplate(template: string, entry: FeedItem): string {
  return template
    .replace(/\{\{\s*(title|link|summary)\s*\}\}/g, (_, name: 'title' | 'link' | 'summary') => entry[name])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
