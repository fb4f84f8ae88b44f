import { z } from 'zod';

export const AccountId = z.string().min(1).max(200);

/** One entry of the self-hosted accounts file (credentials are checked per platform elsewhere). */
export const AccountEntry = z
  .object({
    id: AccountId,
    platform: z.string().min(1),
    platformAccountId: z.string().min(1),
    credentials: z.record(z.string(), z.unknown()),
    label: z.string().optional(),
    username: z.string().optional(),
    profilePicture: z.string().optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'AccountEntry' });
export type AccountEntry = z.infer<typeof AccountEntry>;

export const AccountsFile = z.object({ accounts: z.array(AccountEntry) }).meta({ id: 'AccountsFile' });
export type AccountsFile = z.infer<typeof AccountsFile>;

/** An account as the API shows it: never with credentials. */
export const PublicAccount = z
  .object({
    id: z.string(),
    platform: z.string(),
    platformAccountId: z.string(),
    label: z.string().optional(),
    username: z.string().optional(),
    profilePicture: z.string().optional(),
  })
  .meta({ id: 'Account' });
export type PublicAccount = z.infer<typeof PublicAccount>;

export const AccountsResponse = z
  .object({ accounts: z.array(PublicAccount) })
  .meta({ id: 'AccountsResponse' });

export function toPublicAccount(account: AccountEntry): PublicAccount {
  const { id, platform, platformAccountId, label, username, profilePicture } = account;
  return {
    id,
    platform,
    platformAccountId,
    ...(label === undefined ? {} : { label }),
    ...(username === undefined ? {} : { username }),
    ...(profilePicture === undefined ? {} : { profilePicture }),
  };
}
