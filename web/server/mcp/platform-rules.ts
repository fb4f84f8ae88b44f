import type { AnyPublisher, PlatformManifest, PublisherRegistry } from '@postwave/shared';
import { platformModules } from '@postwave/shared/platforms/registry';
import { z } from 'zod';
import type { AccountView } from '#server/accounts/schema.ts';

/** The browser-safe manifest of a platform, when it has one. */
export function manifestOf(platform: string): PlatformManifest | undefined {
  return platformModules.find((m) => m.manifest?.id === platform)?.manifest;
}

/** The platform's display name: its manifest's, else its publisher's, else its id. */
export function platformName(publishers: PublisherRegistry, platform: string): string {
  return manifestOf(platform)?.name ?? publishers.get(platform)?.displayName ?? platform;
}

/** Option names and descriptions read from the publisher's options schema (platforms without a manifest yet). */
function optionsFromSchema(publisher: AnyPublisher | undefined) {
  if (!publisher) return [];
  try {
    const schema = z.toJSONSchema(publisher.optionsSchema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { description?: string; type?: string; enum?: unknown[] }>;
      required?: string[];
    };
    return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
      name,
      ...(property.type ? { type: property.type } : {}),
      ...(property.description ? { help: property.description } : {}),
      ...(property.enum ? { choices: property.enum } : {}),
      ...(schema.required?.includes(name) ? { required: true } : {}),
    }));
  } catch {
    return [];
  }
}

/** What an assistant needs to write within each account's rules (from the platform manifests). */
export function platformRules(publishers: PublisherRegistry, accounts: readonly AccountView[]) {
  return accounts.map((account) => {
    const manifest = manifestOf(account.platform);
    const base = {
      accountId: account.id,
      platform: account.platform,
      name: platformName(publishers, account.platform),
    };
    if (!manifest) return { ...base, options: optionsFromSchema(publishers.get(account.platform)) };
    return {
      ...base,
      text: { limit: manifest.text.limit, unit: manifest.text.unit },
      media: manifest.media,
      /** Whether `thread`, `accountOptions[id].firstComment` and media `altText` (up to maxLength) apply. */
      features: publishers.traits(account.platform).features,
      options: manifest.options.map(({ name, label, help, type, choices, required }) => ({
        name,
        label,
        type,
        ...(help ? { help } : {}),
        ...(choices ? { choices: choices.map((c) => c.value) } : {}),
        ...(required ? { required } : {}),
      })),
      docs: manifest.docs,
    };
  });
}
