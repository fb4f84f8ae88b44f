import type { PlatformAccount } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import {
  findGrant,
  findGrantByKey,
  grantIdOf,
  insertGrant,
  updateGrantCredentials,
} from './grant-repository.ts';
import { type AccountRow, findAccountById, updateAccount } from './repository.ts';

/*
 * Where an account's credentials live: on the account itself, or, for accounts one login
 * connected together (`ConnectableAccount.grantKey`), once on their shared grant, so a refreshed
 * or rotated token reaches every account of the login (docs/platforms/README.md, "Shared grants").
 * Ciphertexts are bound to their row: one copied onto another account or grant will not decrypt.
 */

export const accountCredentialsAad = (accountId: string) => `account:${accountId}`;
export const grantCredentialsAad = (grantId: string) => `grant:${grantId}`;

/** The credentials an account publishes with, decrypted. */
export async function accountCredentials(
  ctx: AppContext,
  row: Pick<AccountRow, 'id' | 'credentials' | 'grantId'>,
): Promise<Record<string, unknown>> {
  if (row.grantId) {
    const grant = await findGrant(ctx, row.grantId);
    if (!grant) throw new Error(`The account's grant ${row.grantId} is missing`);
    return ctx.cipher.decryptJson(grant.credentials, grantCredentialsAad(grant.id));
  }
  if (row.credentials === null) throw new Error(`The account ${row.id} has no credentials`);
  return ctx.cipher.decryptJson(row.credentials, accountCredentialsAad(row.id));
}

/** An account with decrypted credentials, as the SDK's publishers expect it. */
export async function toPlatformAccount(ctx: AppContext, row: AccountRow): Promise<PlatformAccount> {
  return {
    id: row.id,
    platform: row.platform,
    platformAccountId: row.platformAccountId,
    credentials: await accountCredentials(ctx, row),
    // Read again when a publisher is about to renew a token: another instance sharing this
    // database may have rotated the refresh token since (docs/platforms/README.md, "Shared grants").
    currentCredentials: async () => {
      const current = await findAccountById(ctx, row.id);
      return current ? accountCredentials(ctx, current) : undefined;
    },
    ...(row.label ? { label: row.label } : {}),
    ...(row.username ? { username: row.username } : {}),
    ...(row.profilePicture ? { profilePicture: row.profilePicture } : {}),
  };
}

/**
 * Stores credentials a publisher renewed: on the account's grant when it has one (every account
 * of the login then uses them), else on the account.
 */
export async function saveRefreshedCredentials(
  ctx: AppContext,
  accountId: string,
  credentials: Record<string, unknown>,
): Promise<void> {
  const grantId = await grantIdOf(ctx, accountId);
  if (grantId) {
    await updateGrantCredentials(
      ctx,
      grantId,
      ctx.cipher.encryptJson(credentials, grantCredentialsAad(grantId)),
    );
    return;
  }
  await updateAccount(ctx, accountId, {
    credentials: ctx.cipher.encryptJson(credentials, accountCredentialsAad(accountId)),
  });
}

/**
 * The user's grant for this login, created or given these credentials (a reconnect renews every
 * account of the login at once). Returns its id.
 */
export async function saveGrant(
  ctx: AppContext,
  input: { workspaceId: string; platform: string; grantKey: string; credentials: Record<string, unknown> },
): Promise<string> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await findGrantByKey(ctx, input);
    if (existing) {
      await updateGrantCredentials(
        ctx,
        existing.id,
        ctx.cipher.encryptJson(input.credentials, grantCredentialsAad(existing.id)),
      );
      return existing.id;
    }
    const id = crypto.randomUUID();
    const now = new Date();
    try {
      await insertGrant(ctx, {
        id,
        workspaceId: input.workspaceId,
        platform: input.platform,
        grantKey: input.grantKey,
        credentials: ctx.cipher.encryptJson(input.credentials, grantCredentialsAad(id)),
        createdAt: now,
        updatedAt: now,
      });
      return id;
    } catch (error) {
      // The same login was saved at the same moment (two accounts of one picker): use that one.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('Could not save the grant');
}
