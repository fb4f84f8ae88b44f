import { z } from 'zod';
import { PlatformError } from '../../errors.ts';
import type { AccountProfile } from '../types.ts';
import type { MastodonApi } from './api.ts';

const verifiedAccountSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  username: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
  display_name: z.string().optional(),
  avatar: z.string().optional(),
  followers_count: z.number().int().nonnegative().optional(),
});
export type VerifiedAccount = z.infer<typeof verifiedAccountSchema>;

/**
 * `GET /api/v1/accounts/verify_credentials`, keeping only fields shaped like Mastodon's: the
 * instance is whatever host the user named, so nothing else of the reply is copied anywhere.
 */
export async function verifiedAccount(api: MastodonApi): Promise<VerifiedAccount> {
  const { body } = await api.request<unknown>({
    method: 'GET',
    path: '/api/v1/accounts/verify_credentials',
    operation: 'account',
  });
  const parsed = verifiedAccountSchema.safeParse(body);
  if (!parsed.success)
    throw new PlatformError(
      'platform_unavailable',
      `${new URL(api.origin).host} did not answer like a ${api.platformName} server`,
    );
  return parsed.data;
}

/** The profile an account connects with: display name, `@user@host`, id and avatar. */
export async function verifiedProfile(api: MastodonApi): Promise<AccountProfile> {
  const { id, username, display_name: displayName, avatar } = await verifiedAccount(api);
  const name = displayName?.trim().slice(0, 64);
  return {
    name: name || username,
    username: `@${username}@${new URL(api.origin).host}`,
    platformAccountId: id,
    ...(avatar && /^https?:\/\/\S{1,2000}$/.test(avatar) ? { avatarUrl: avatar } : {}),
  };
}
