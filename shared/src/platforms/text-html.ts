/**
 * Plain text as HTML, for platforms that take a formatted copy beside the text (Matrix's
 * `formatted_body`): paragraphs (blank lines) become `<p>`, single line breaks `<br>`, http(s)
 * URLs links, and everything else is escaped, so nothing the user typed becomes markup.
 * Browser-safe: composer counters measure the same HTML validation measures.
 */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${paragraph.split('\n').map(linkify).join('<br>')}</p>`)
    .join('');
}

const urlPattern = /https?:\/\/[^\s<>"]+/gi;

function linkify(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(urlPattern)) {
    const url = trimUrlEnd(match[0]);
    const start = match.index;
    // A URL glued to a word ("xhttps://…") is not a link.
    if (start > 0 && /[\p{L}\p{N}_]/u.test(line[start - 1]!)) continue;
    html += escapeHtml(line.slice(last, start));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEntities[char]!);
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Sentence punctuation after a URL is not part of it, nor is a ")" the URL did not open. */
export function trimUrlEnd(url: string): string {
  let result = url.replace(/[.,;:!?'"]+$/u, '');
  const count = (char: string) => result.split(char).length - 1;
  while (result.endsWith(')') && count(')') > count('('))
    result = result.slice(0, -1).replace(/[.,;:!?'"]+$/u, '');
  return result;
}
