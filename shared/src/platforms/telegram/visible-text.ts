import { utf16Length } from '../../text.ts';
import type { TelegramOptions } from './options.ts';

/**
 * Telegram applies its length limits to the text after parsing formatting, counted in UTF-16
 * code units: `<b>hi</b>` is 2 long. Counting the raw markup would refuse posts Telegram accepts.
 */
export function visibleLength(text: string, parseMode: TelegramOptions['parseMode']): number {
  if (parseMode === 'HTML') return utf16Length(visibleHtml(text));
  if (parseMode === 'MarkdownV2') return utf16Length(visibleMarkdownV2(text));
  return utf16Length(text);
}

const namedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Tags dropped, the entities Telegram supports decoded. */
export function visibleHtml(text: string): string {
  return text.replace(/<[^>]*>/g, '').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return namedEntities[name.toLowerCase()] ?? entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/**
 * Link and custom-emoji targets, markup characters and escaping backslashes dropped. In
 * MarkdownV2 every markup character that is meant literally must be escaped, so an
 * unescaped one is markup.
 */
export function visibleMarkdownV2(text: string): string {
  let out = '';
  // Inside code only '`' and '\\' are escaped; everything else is literal.
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) {
      out += text[++i];
    } else if (char === '`') {
      const fence = text.startsWith('```', i) ? '```' : '`';
      const end = text.indexOf(fence, i + fence.length);
      const stop = end < 0 ? text.length : end;
      let code = text.slice(i + fence.length, stop);
      // A pre block's first line names its language and is not shown.
      if (fence === '```' && /^[^\s`]*\n/.test(code)) code = code.slice(code.indexOf('\n') + 1);
      out += code.replace(/\\([`\\])/g, '$1');
      i = stop + fence.length - 1;
    } else if (char === ']' && text[i + 1] === '(') {
      const close = text.indexOf(')', i + 2);
      i = close < 0 ? text.length : close;
    } else if (char === '>' && (i === 0 || text[i - 1] === '\n')) {
      // a block quote marker
    } else if (!'*_~|[]`!'.includes(char) || (char === '!' && text[i + 1] !== '[')) {
      out += char;
    }
  }
  return out;
}
