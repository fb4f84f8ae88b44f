import { graphemeLength } from '../../text.ts';
import { trimUrlEnd } from '../text-html.ts';

// Mastodon only gives URLs the fixed length when they carry a scheme (extract_url_without_protocol: false).
const urlPattern = /(^|[^\p{L}\p{N}_@#$/])(https?:\/\/[^\s<>"]+)/giu;
// "@user@domain" counts as "@user": the domain part is free.
const mentionPattern =
  /(^|[^/\p{L}\p{N}_])@([a-z0-9_]+(?:[a-z0-9_.-]*[a-z0-9_])?)(?:@[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?/giu;

/**
 * Characters as Mastodon's StatusLengthValidator counts them: the content warning plus the
 * text, in grapheme clusters, with every URL counted as `charactersReservedPerUrl` and
 * mentions counted without their domain.
 */
export function mastodonLength(text: string, spoilerText: string, charactersReservedPerUrl: number): number {
  const placeholder = 'x'.repeat(charactersReservedPerUrl);
  const countable = text
    .replace(urlPattern, (_all, before: string, url: string) => {
      const trimmed = trimUrlEnd(url);
      return before + placeholder + url.slice(trimmed.length);
    })
    .replace(mentionPattern, (_all, before: string, username: string) => `${before}@${username}`);
  return graphemeLength(spoilerText + countable);
}
