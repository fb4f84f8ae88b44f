/**
 * Platform names, colours and text counting for the browser. Counting reuses the SDK's own
 * browser-safe counters, so the composer counts exactly as validation does.
 */
import { mastodonLength } from '@postwave/shared/platforms/mastodon/count';
import { visibleLength } from '@postwave/shared/platforms/telegram/visible-text';
import { codePointLength, graphemeLength } from '@postwave/shared/text';
import type { AccountView } from '#server/accounts/schema.ts';

/** The API's connected account, declared once in the accounts schema. */
export type AccountSummary = AccountView;

export interface PlatformMeta {
  id: string;
  name: string;
  /** Two letters for the platform badge. */
  mark: string;
  color: string;
}

export const platforms: Record<string, PlatformMeta> = {
  telegram: { id: 'telegram', name: 'Telegram', mark: 'TG', color: '#229ed9' },
  bluesky: { id: 'bluesky', name: 'Bluesky', mark: 'BS', color: '#1185fe' },
  mastodon: { id: 'mastodon', name: 'Mastodon', mark: 'MA', color: '#6364ff' },
  discord: { id: 'discord', name: 'Discord', mark: 'DC', color: '#5865f2' },
  youtube: { id: 'youtube', name: 'YouTube', mark: 'YT', color: '#ff0033' },
};

export function platformMeta(id: string): PlatformMeta {
  return platforms[id] ?? { id, name: id, mark: id.slice(0, 2).toUpperCase(), color: '#64748b' };
}

export function accountName(
  account: Pick<AccountSummary, 'label' | 'username' | 'platformAccountId'>,
): string {
  return account.label || account.username || account.platformAccountId;
}

export function accountHandle(account: Pick<AccountSummary, 'platform' | 'username' | 'platformAccountId'>) {
  if (account.username) return account.username.startsWith('@') ? account.username : `@${account.username}`;
  return account.platformAccountId;
}

export interface TextCount {
  used: number;
  limit: number;
  /** What is counted, for the counter's tooltip. */
  unit: string;
}

/** How a platform counts the message, and its limit for this post. */
export function countFor(
  platform: string,
  message: string,
  options: { hasMedia: boolean; parseMode?: string | undefined },
): TextCount | undefined {
  switch (platform) {
    case 'telegram': {
      const parseMode =
        options.parseMode === 'HTML' || options.parseMode === 'MarkdownV2' ? options.parseMode : undefined;
      return {
        used: visibleLength(message, parseMode),
        limit: options.hasMedia ? 1024 : 4096,
        unit: options.hasMedia ? 'caption characters (UTF-16)' : 'characters (UTF-16)',
      };
    }
    case 'bluesky':
      return { used: graphemeLength(message), limit: 300, unit: 'characters' };
    case 'mastodon':
      return { used: mastodonLength(message, '', 23), limit: 500, unit: 'characters (links count 23)' };
    case 'discord':
      return { used: codePointLength(message), limit: 2000, unit: 'characters' };
    case 'youtube':
      return { used: new TextEncoder().encode(message).length, limit: 5000, unit: 'description bytes' };
    default:
      return undefined;
  }
}
