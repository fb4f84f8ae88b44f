import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { validationFailed } from '#server/http/problems.ts';
import { ownedAccountIds } from './repository.ts';

/**
 * Every id names one of this user's accounts (422 `account_not_found` per missing id otherwise).
 * What drafts and feeds check: they skip platform validation but may only name the user's accounts.
 */
export async function assertOwnedAccounts(
  ctx: AppContext,
  workspaceId: string,
  accountIds: readonly string[],
): Promise<void> {
  const found = await ownedAccountIds(ctx, workspaceId, accountIds.filter(isUuid));
  const missing = accountIds.filter((id) => !found.has(id));
  if (missing.length) {
    throw validationFailed(
      'Some accounts do not exist',
      missing.map((id) => ({
        accountId: id,
        path: 'accountIds',
        code: 'account_not_found',
        message: `No account with id "${id}"`,
      })),
    );
  }
}
