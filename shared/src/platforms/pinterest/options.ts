import { z } from 'zod';
import { maxLinkLength, maxTitleLength, pinterestLength } from './limits.ts';

/** Per-pin Pinterest options; strict so a misspelt option is an error instead of being ignored. */
export const pinterestOptionsSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1)
      // Counted in code points as Pinterest (and the description check) counts them, not the
      // UTF-16 units `.max` counts: an emoji outside the BMP is one character.
      .refine((title) => pinterestLength(title) <= maxTitleLength, {
        message: `A Pinterest title holds up to ${maxTitleLength} characters`,
      })
      .optional()
      .meta({ description: `The pin's title, up to ${maxTitleLength} characters (code points).` }),
    link: z
      .url({ protocol: /^https?$/ })
      .max(maxLinkLength)
      .optional()
      .meta({ description: 'Where the pin leads (an http(s) URL).' }),
    boardSectionId: z
      .string()
      .regex(/^\d{1,30}$/, 'must be a board section id')
      .optional()
      .meta({ description: "A section of the account's board (GET /v5/boards/{board}/sections)." }),
  })
  .meta({ id: 'PinterestOptions' });
export type PinterestOptions = z.infer<typeof pinterestOptionsSchema>;

const instant = z.union([z.iso.datetime({ offset: true }), z.number().int().positive()]);

/**
 * OAuth credentials of the login that owns the board. Access tokens live 30 days and refresh
 * tokens 60 days; Pinterest answers every refresh with a new refresh token (continuous refresh),
 * so renewed credentials are handed back to be stored, and the boards of one login share them.
 */
export const pinterestCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'User access token (`pina_…`).' }),
    refreshToken: z
      .string()
      .min(1)
      .meta({ description: 'Refresh token (`pinr.…`), rotated on every refresh.' }),
    expiresAt: instant.optional().meta({ description: 'When accessToken expires: ISO 8601 or epoch ms.' }),
    refreshExpiresAt: instant.optional().meta({ description: 'When refreshToken expires.' }),
    userId: z.string().optional().meta({ description: "The Pinterest user's id (who owns the tokens)." }),
  })
  .meta({ id: 'PinterestCredentials' });
export type PinterestCredentials = z.infer<typeof pinterestCredentialsSchema>;
