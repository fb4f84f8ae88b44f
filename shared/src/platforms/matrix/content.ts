import { utf8Length } from '../../text.ts';
import { plainTextToHtml } from '../text-html.ts';

/** The spec's limit on a whole event (content plus envelope, canonical JSON). */
export const maxEventBytes = 65_536;
/**
 * What the homeserver adds around our content before the limit applies (room id, sender,
 * hashes, signatures, auth and prev events, a thread relation): kept free so a text that fits
 * here is never refused as too large.
 */
export const envelopeReserveBytes = 2048;

export interface TextContent {
  msgtype: 'm.text' | 'm.notice';
  body: string;
  format?: 'org.matrix.custom.html';
  formatted_body?: string;
}

/**
 * The text event's content: the plain `body` and its HTML beside it. When both do not fit the
 * event limit the HTML is left out (clients show the body), so a long text still posts.
 * Browser-safe: the composer counts what validation counts.
 */
export function textContent(message: string, notice: boolean | undefined): TextContent {
  const msgtype = notice ? 'm.notice' : 'm.text';
  const formatted: TextContent = {
    msgtype,
    body: message,
    format: 'org.matrix.custom.html',
    formatted_body: plainTextToHtml(message),
  };
  if (eventBytes(formatted) <= maxEventBytes) return formatted;
  return { msgtype, body: message };
}

/** The event's estimated size: its content's JSON plus the envelope reserve. */
export function eventBytes(content: object): number {
  return utf8Length(JSON.stringify(content)) + envelopeReserveBytes;
}
