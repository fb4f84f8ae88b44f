import type { PlatformManifest } from '@postwave/shared';
import { platformModules } from '@postwave/shared/platforms/registry';
import type { AccountView } from '../services/accounts.ts';

/** The browser-safe manifest of a platform, when it has one. */
export function manifestOf(platform: string): PlatformManifest | undefined {
  return platformModules.find((m) => m.manifest?.id === platform)?.manifest;
}

/** What an assistant needs to write within each account's rules (from the platform manifests). */
export function platformRules(accounts: readonly AccountView[]) {
  return accounts.map((account) => {
    const manifest = manifestOf(account.platform);
    return {
      accountId: account.id,
      platform: account.platform,
      ...(manifest
        ? {
            name: manifest.name,
            text: { limit: manifest.text.limit, unit: manifest.text.unit },
            media: manifest.media,
            options: manifest.options.map(({ name, label, help, type, choices, required }) => ({
              name,
              label,
              type,
              ...(help ? { help } : {}),
              ...(choices ? { choices: choices.map((c) => c.value) } : {}),
              ...(required ? { required } : {}),
            })),
            docs: manifest.docs,
          }
        : {}),
    };
  });
}
