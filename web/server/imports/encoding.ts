import { isUtf8 } from 'node:buffer';
import { loneSurrogatePath, ProblemError, type ProblemIssue, problem } from '@postwave/shared';

/**
 * An import's text must be UTF-8 and hold no lone surrogates: the file is refused (422, naming the
 * row and byte) rather than repaired, because a replacement character would be published in the
 * person's name, and a file with one bad byte was almost always saved in another encoding
 * (Windows-1252, UTF-16) so every accent in it is wrong. See docs/import-export.md#encoding.
 */

const refused = (issue: ProblemIssue) =>
  new ProblemError(
    problem('validation_failed', `The file is not valid UTF-8 text: ${issue.message}`, { errors: [issue] }),
  );

/** The body as text, or 422 `invalid_utf8` naming the first bad byte and its CSV row (or JSON line). */
export function decodeImportText(bytes: Buffer, format: 'csv' | 'json'): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const offset = firstInvalidByte(bytes);
  const before = bytes.subarray(0, offset).toString('utf8');
  const row = format === 'csv' ? csvRowAt(before) : undefined;
  const where =
    row === undefined
      ? `byte ${offset} (line ${before.split('\n').length})`
      : row === 0
        ? `byte ${offset} (in the header)`
        : `byte ${offset} (row ${row})`;
  const utf16 = bytes[0] === 0xff || bytes[0] === 0xfe ? ' (it looks like UTF-16)' : '';
  throw refused({
    code: 'invalid_utf8',
    message: `${where} is not UTF-8${utf16}; save the file as UTF-8 and import it again`,
  });
}

/** 422 `lone_surrogate` for the first string of a JSON import holding half a UTF-16 pair (`"\ud800"`). */
export function refuseLoneSurrogates(rows: unknown): void {
  if (!Array.isArray(rows)) return;
  rows.forEach((row, i) => {
    const path = loneSurrogatePath(row);
    if (path !== undefined)
      throw refused({
        path: `[${i}]${path && !path.startsWith('[') ? '.' : ''}${path}`,
        code: 'lone_surrogate',
        message: `row ${i + 1} holds a lone UTF-16 surrogate at ${path || 'its top'}, which is no character; fix the \\u escape`,
      });
  });
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    // The second byte's range rules out overlong forms, surrogates (ED A0..BF) and > U+10FFFF.
    if (length > 1) {
      const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (second < low || second > high) return i;
    }
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/**
 * The data row (1-based, the header being 0, blank lines skipped, as the importer counts) that
 * the text after `before` is in: line breaks inside quotes do not end a row (RFC 4180).
 */
export function csvRowAt(before: string): number {
  let records = 0;
  let quoted = false;
  let empty = true;
  for (const char of before) {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === '\n' || char === '\r')) {
      if (!empty) records++;
      empty = true;
    } else empty = false;
  }
  // `records` complete records precede the current one; the first is the header (row 0).
  return records;
}
