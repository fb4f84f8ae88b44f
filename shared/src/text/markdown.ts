import MarkdownIt, { type MarkdownIt as Renderer } from 'markdown-it';

/**
 * Markdown for long-form platforms (docs/platforms/README.md, "Long-form platforms"): the message
 * is Markdown; platforms that take HTML (WordPress, Ghost) get it rendered here, the others
 * (Dev.to, Medium, Hashnode, Lemmy, Listmonk) get the Markdown itself.
 *
 * The rendering is safe to hand to a site: raw HTML in the message is escaped (never passed
 * through), and a link or image keeps only an http(s), mailto or relative address, so no
 * `javascript:` or `data:` URL reaches a page.
 */

const safeScheme = /^(https?:|mailto:)/i;
const anyScheme = /^[a-z][a-z0-9+.-]*:/i;

function createRenderer(breaks: boolean): Renderer {
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false, breaks });
  md.validateLink = (url) => {
    const address = url.trim();
    return safeScheme.test(address) || !anyScheme.test(address);
  };
  return md;
}

const renderers = { breaks: createRenderer(true), paragraphs: createRenderer(false) };

export interface MarkdownToHtmlOptions {
  /**
   * A single line break becomes `<br>` (default true): people write in a composer, not a text
   * editor that wraps lines, so a new line they typed is one they mean. False: CommonMark's rule
   * (only a blank line starts a new paragraph).
   */
  breaks?: boolean;
}

/** The message's Markdown as safe HTML: paragraphs, emphasis, lists, headings, code, links. */
export function markdownToHtml(markdown: string, options: MarkdownToHtmlOptions = {}): string {
  const renderer = options.breaks === false ? renderers.paragraphs : renderers.breaks;
  return renderer.render(markdown);
}

/** Text as HTML text or attribute value (`&`, `<`, `>`, `"`, `'` escaped). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** An image placed in a long-form post: where the platform (or we) serve it, and its alt text. */
export interface PostImage {
  url: string;
  alt?: string | undefined;
}

/**
 * Images as HTML figures appended after the text (WordPress and Ghost bodies), each `<img>` with
 * its alt text. Only http(s) addresses are written; anything else is dropped.
 */
export function imagesHtml(images: readonly PostImage[], figureClass?: string): string {
  const classAttribute = figureClass ? ` class="${escapeHtml(figureClass)}"` : '';
  return images
    .filter((image) => /^https?:\/\//i.test(image.url))
    .map(
      (image) =>
        `<figure${classAttribute}><img src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt ?? '')}"></figure>`,
    )
    .join('\n');
}

/**
 * Images as Markdown appended after the text (Dev.to, Medium, Hashnode, Lemmy, Listmonk bodies):
 * `![alt](<url>)`, the alt text's brackets and the URL's angle brackets escaped.
 */
export function imagesMarkdown(images: readonly PostImage[]): string {
  return images
    .filter((image) => /^https?:\/\//i.test(image.url))
    .map((image) => {
      const alt = (image.alt ?? '').replace(/[\\[\]]/g, '\\$&').replace(/\s+/g, ' ');
      const url = image.url.replace(/[<>\s]/g, (c) => encodeURIComponent(c));
      return `![${alt}](<${url}>)`;
    })
    .join('\n\n');
}

/** The body with the images after it, separated by a blank line (nothing added without images). */
export function appendBlock(body: string, block: string): string {
  if (!block) return body;
  const text = body.trimEnd();
  return text ? `${text}\n\n${block}` : block;
}
