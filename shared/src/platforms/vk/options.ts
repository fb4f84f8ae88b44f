import { z } from 'zod';

/** VK takes no per-post options (a community wall is always posted as the community). */
export const vkOptionsSchema = z.strictObject({}).meta({ id: 'VkOptions' });
export type VkOptions = z.infer<typeof vkOptionsSchema>;

/**
 * A user access token with the `wall` and `photos` rights (and `offline`, so it does not expire).
 * For a community wall, the token of one of its administrators.
 */
export const vkCredentialsSchema = z
  .object({
    accessToken: z.string().trim().min(1).meta({
      description:
        'A VK user access token with the wall and photos rights (offline, so it lasts); for a community wall, a token of one of its administrators.',
    }),
  })
  .meta({ id: 'VkCredentials' });
export type VkCredentials = z.infer<typeof vkCredentialsSchema>;
