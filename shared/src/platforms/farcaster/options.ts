import { z } from 'zod';

/** Per-post Farcaster options; strict, so a misspelt `channelId` does not post outside the channel. */
export const farcasterOptionsSchema = z
  .strictObject({
    channelId: z
      .string()
      .trim()
      .transform((id) => id.replace(/^\//, '').toLowerCase())
      .pipe(
        z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a channel id is lower-case letters, digits and dashes'),
      )
      .optional()
      .meta({ description: 'Post in this channel (its id, as in `/channel/<id>`; a leading / is dropped).' }),
    // A boolean; "true" and "false" too, as the composer's select sends them.
    longCast: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .optional()
      .meta({
        description:
          'Allow a long cast of up to 1024 bytes (the account needs Farcaster Pro); otherwise casts are limited to 320 bytes.',
      }),
  })
  .meta({ id: 'FarcasterOptions' });
export type FarcasterOptions = z.infer<typeof farcasterOptionsSchema>;

/** A Neynar managed signer of the account; the app's NEYNAR_API_KEY is the operator's. */
export const farcasterCredentialsSchema = z
  .object({
    signerUuid: z
      .string()
      .trim()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a signer UUID')
      .meta({ description: 'The UUID of an approved Neynar managed signer for the account.' }),
  })
  .meta({ id: 'FarcasterCredentials' });
export type FarcasterCredentials = z.infer<typeof farcasterCredentialsSchema>;
