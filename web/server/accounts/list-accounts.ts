import type { PlatformAccount } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { toPlatformAccount } from './credentials.ts';
import { type AccountRow, accountsOf, findAccount } from './repository.ts';
import type { AccountView } from './schema.ts';
import { toView } from './view.ts';

export async function listAccounts(ctx: AppContext, workspaceId: string): Promise<AccountView[]> {
  return (await accountsOf(ctx, workspaceId)).map(toView);
}

export async function getAccountRow(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
): Promise<AccountRow | undefined> {
  return isUuid(accountId) ? findAccount(ctx, workspaceId, accountId) : undefined;
}

/** Decrypted accounts by id, kept for one dispatch run only. */
export type AccountCache = Map<string, Promise<PlatformAccount | undefined>>;

/** The AccountLookup the PostingService uses: only this user's accounts exist. */
export function accountLookup(ctx: AppContext, workspaceId: string, cache?: AccountCache) {
  const load = async (accountId: string): Promise<PlatformAccount | undefined> => {
    const row = await getAccountRow(ctx, workspaceId, accountId);
    return row ? await toPlatformAccount(ctx, row) : undefined;
  };
  if (!cache) return load;
  return (accountId: string): Promise<PlatformAccount | undefined> => {
    // Keyed by user too: a cache shared by a run never answers one user with another's account.
    const key = `${workspaceId}:${accountId}`;
    let found = cache.get(key);
    if (!found) {
      found = load(accountId);
      cache.set(key, found);
    }
    return found;
  };
}
