import { shortenerProviders } from '@postwave/shared';
import { z } from 'zod';

/** Zod schemas of tracked links (contract section I, "Links"; docs/links.md). */

const utmValue = (what: string) =>
  z
    .string()
    .trim()
    .max(100)
    .optional()
    .meta({
      description: `${what}; \`{platform}\` is replaced by the target's platform id. Empty: not added.`,
    });

// Named constants, not object keys: one of these names is also a platform id, which adapters never spell.
const source = utmValue('`utm_source`, by default `{platform}`').default('{platform}');
const medium = utmValue('`utm_medium`, e.g. `social`');
const campaign = utmValue('`utm_campaign`');

export const UtmSettings = z.object({ source, medium, campaign }).meta({
  id: 'UtmSettings',
  description:
    'UTM parameters appended to every http(s) link of each target’s text at publish time (a key the link already has is kept as it is).',
});

export const ShortenerView = z
  .object({
    provider: z.enum(shortenerProviders),
    apiUrl: z.string(),
    domain: z.string().nullable(),
    hasApiKey: z.boolean().meta({ description: 'The API key is stored (it is never answered).' }),
  })
  .meta({ id: 'ShortenerSettings' });

export const LinkSettings = z
  .object({
    utm: UtmSettings.nullable().meta({ description: 'Null: no UTM parameters.' }),
    shortener: ShortenerView.nullable().meta({ description: 'Null: links are not shortened.' }),
  })
  .meta({ id: 'LinkSettings', description: 'A workspace’s tracked links (docs/links.md).' });
export type LinkSettingsView = z.infer<typeof LinkSettings>;

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const u = new URL(value);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'Must be an absolute http(s) URL without credentials');

export const UpdateLinkSettingsRequest = z
  .object({
    utm: UtmSettings.nullable().optional(),
    shortener: z
      .object({
        provider: z.enum(shortenerProviders),
        apiUrl: httpUrl.optional().meta({
          description:
            'Your instance’s base URL (Shlink: the server, e.g. `https://s.example.com`; Kutt: e.g. `https://kutt.it`). Dub: default `https://api.dub.co`.',
        }),
        apiKey: z.string().trim().min(1).max(500).optional().meta({
          description:
            'Write-only. Needed when no key is stored, or when `provider` or `apiUrl` changes (a stored key is never sent to another host); omitted otherwise to keep the stored one.',
        }),
        domain: z
          .string()
          .trim()
          .max(253)
          .regex(/^[a-z0-9.-]+$/i, 'A host name, like go.example.com')
          .nullable()
          .optional()
          .meta({ description: 'A custom short domain on your shortener account; its default when absent.' }),
      })
      .nullable()
      .optional(),
  })
  .meta({
    id: 'UpdateLinkSettingsRequest',
    description: 'Replaces the settings given (`null` turns that part off); a part not given stays as it is.',
  });
export type UpdateLinkSettings = z.infer<typeof UpdateLinkSettingsRequest>;
