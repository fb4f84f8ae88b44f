import { z } from 'zod';
import { maxPhotoTitleLength } from './limits.ts';

/** Per-post TikTok options; strict so a misspelt option is an error instead of being ignored. */
export const tiktokOptionsSchema = z
  .strictObject({
    privacyLevel: z.string().min(1).optional().meta({
      description:
        "Required: one of the creator's `privacy_level_options` from creator_info (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY); never defaulted, as TikTok requires. Apps TikTok has not audited may only post SELF_ONLY.",
    }),
    disableComment: z.boolean().optional().meta({ description: 'Turn comments off.' }),
    disableDuet: z.boolean().optional().meta({ description: 'Turn Duet off (videos).' }),
    disableStitch: z.boolean().optional().meta({ description: 'Turn Stitch off (videos).' }),
    title: z
      .string()
      .trim()
      .min(1)
      .max(maxPhotoTitleLength)
      .optional()
      .meta({ description: `Photo posts: the title (up to ${maxPhotoTitleLength} characters).` }),
  })
  .meta({ id: 'TikTokOptions' });
export type TikTokOptions = z.infer<typeof tiktokOptionsSchema>;

const instant = z.union([z.iso.datetime({ offset: true }), z.number().int().positive()]);

/**
 * OAuth v2 user credentials. The access token lives 24 hours and the refresh token 365 days; the
 * publisher renews the access token itself (with TIKTOK_CLIENT_KEY / TIKTOK_CLIENT_SECRET) and
 * hands renewed credentials back, refresh token included, to be stored.
 */
export const tiktokCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'User access token (`act.…`), 24 hours.' }),
    refreshToken: z.string().min(1).meta({ description: 'Refresh token (`rft.…`), 365 days.' }),
    expiresAt: instant.optional().meta({ description: 'When accessToken expires: ISO 8601 or epoch ms.' }),
    refreshExpiresAt: instant
      .optional()
      .meta({ description: 'When refreshToken expires: ISO 8601 or epoch ms.' }),
  })
  .meta({ id: 'TikTokCredentials' });
export type TikTokCredentials = z.infer<typeof tiktokCredentialsSchema>;
