import { z } from 'zod';

/** Twitch takes no per-post options: the message goes to the broadcaster's own chat. */
export const twitchOptionsSchema = z.strictObject({}).meta({ id: 'TwitchOptions' });
export type TwitchOptions = z.infer<typeof twitchOptionsSchema>;

/**
 * The broadcaster's user access token (scope `user:write:chat`) with its refresh token and the
 * app's client id; the client secret is needed to refresh (the Scheduler uses TWITCH_CLIENT_SECRET).
 */
export const twitchCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'User access token with the user:write:chat scope.' }),
    refreshToken: z.string().min(1).meta({ description: 'Its refresh token.' }),
    clientId: z.string().min(1).meta({ description: 'Client id of the Twitch app that issued the token.' }),
    clientSecret: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The app’s client secret, to refresh (default TWITCH_CLIENT_SECRET).' }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
  })
  .meta({ id: 'TwitchCredentials' });
export type TwitchCredentials = z.infer<typeof twitchCredentialsSchema>;
