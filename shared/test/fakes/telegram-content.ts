import { visibleHtml, visibleMarkdownV2 } from '../../src/platforms/telegram/visible-text.ts';

/** A Bot API failure as Telegram words it. */
export class TelegramApiError extends Error {
  readonly status: number;
  readonly parameters: Record<string, number> | undefined;
  constructor(status: number, description: string, parameters?: Record<string, number>) {
    super(description);
    this.status = status;
    this.parameters = parameters;
  }
}

export const badRequest = (description: string): TelegramApiError =>
  new TelegramApiError(400, `Bad Request: ${description}`);

/**
 * The text a reader sees after Telegram parses `parse_mode`, or the entity error Telegram
 * answers for broken markup (only the mistakes people actually make are modelled).
 */
export function parsedText(text: string, parseMode: unknown): string {
  if (parseMode === undefined || parseMode === '') return text;
  if (parseMode === 'HTML') {
    checkHtml(text);
    return visibleHtml(text);
  }
  if (parseMode === 'MarkdownV2') {
    checkMarkdownV2(text);
    return visibleMarkdownV2(text);
  }
  throw badRequest('unsupported parse_mode');
}

const htmlTags = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);

function checkHtml(text: string): void {
  const open: string[] = [];
  for (const match of text.matchAll(/<(\/?)([a-z-]+)[^>]*>/gi)) {
    const [, closing, rawName] = match;
    const name = rawName!.toLowerCase();
    const offset = Buffer.byteLength(text.slice(0, match.index));
    if (!htmlTags.has(name)) {
      throw badRequest(`can't parse entities: Unsupported start tag "${name}" at byte offset ${offset}`);
    }
    if (!closing) open.push(name);
    else if (open.pop() !== name) {
      throw badRequest(`can't parse entities: Unexpected end tag at byte offset ${offset}`);
    }
  }
  if (open.length > 0) {
    throw badRequest(`can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"`);
  }
}

/** Characters MarkdownV2 reserves that are never markup on their own, so must be escaped. */
const alwaysReserved = '#+-={}.';

function checkMarkdownV2(text: string): void {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      i++;
      continue;
    }
    // Inside a link target or code only ')' / '`' and '\\' are special.
    if (char === ']' && text[i + 1] === '(') {
      i = skipUntil(text, i + 2, ')');
      continue;
    }
    if (char === '`') {
      i = skipUntil(text, i + 1, '`');
      continue;
    }
    const reserved =
      alwaysReserved.includes(char) ||
      (char === '!' && text[i + 1] !== '[') ||
      (char === '>' && i > 0 && text[i - 1] !== '\n');
    if (reserved) {
      throw badRequest(
        `can't parse entities: Character '${char}' is reserved and must be escaped with the preceding '\\'`,
      );
    }
  }
}

function skipUntil(text: string, from: number, end: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === end) return i;
  }
  return text.length;
}

/** Magic numbers of the image formats Telegram can turn into a photo. */
export function looksLikeImage(bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) ||
    ascii(0, 8) === '\x89PNG\r\n\x1a\n' ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') ||
    ascii(0, 4) === 'GIF8'
  );
}
