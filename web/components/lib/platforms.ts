/**
 * Platform presentation and counting for the browser, read from the SDK's browser-safe manifests
 * (`@postwave/shared/platforms/manifests`): nothing here names a platform, and the counters count
 * exactly as validation does because the manifests reuse the validators' own counting functions.
 */
import type { CountInput, TextCount } from '@postwave/shared/platforms/manifest';
import { manifestFor, type PlatformManifest, platformManifests } from '@postwave/shared/platforms/manifests';
import type { AccountView } from '#server/accounts/schema.ts';

export type { TextCount } from '@postwave/shared/platforms/manifest';
export { manifestFor, platformManifests } from '@postwave/shared/platforms/manifests';

/** The API's connected account, declared once in the accounts schema. */
export type AccountSummary = AccountView;

/** Every platform this build publishes to, by name: "Telegram, Discord, … and Instagram". */
export function platformNames(): string {
  const names = platformManifests.map((manifest) => manifest.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/** The platform's display name; the bare id for a platform this build does not know. */
export function platformName(platform: string): string {
  return manifestFor(platform)?.name ?? platform;
}

export function accountName(
  account: Pick<AccountSummary, 'label' | 'username' | 'platformAccountId'>,
): string {
  return account.label || account.username || account.platformAccountId;
}

export function accountHandle(account: Pick<AccountSummary, 'username' | 'platformAccountId'>) {
  if (account.username) return account.username.startsWith('@') ? account.username : `@${account.username}`;
  return account.platformAccountId;
}

/** How the account's platform counts this post's text, and its limit for it. */
export function countFor(platform: string, input: CountInput): TextCount | undefined {
  return manifestFor(platform)?.text.count(input);
}

export type { PlatformManifest };
