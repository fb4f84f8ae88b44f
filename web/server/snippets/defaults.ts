import { ownedAccountIds } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import type { SnippetKind } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { validationFailed } from '#server/http/problems.ts';

/**
 * The accounts a snippet is to be the default of, checked: only a signature is a default
 * (`default_needs_signature`), and each account is the workspace's (`account_not_found`), both
 * 422 naming `defaultFor`. Duplicates are dropped.
 */
export async function checkedDefaults(
  ctx: AppContext,
  workspaceId: string,
  kind: SnippetKind,
  defaultFor: string[],
): Promise<string[]> {
  const ids = [...new Set(defaultFor)];
  if (ids.length > 0 && kind !== 'signature') {
    throw validationFailed('Only a signature can be an account’s default', [
      {
        path: 'defaultFor',
        code: 'default_needs_signature',
        message: `A ${kind} snippet cannot be a default; use kind "signature" or defaultFor []`,
      },
    ]);
  }
  const found = await ownedAccountIds(ctx, workspaceId, ids.filter(isUuid));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw validationFailed(
      'Some accounts do not exist',
      missing.map((id) => ({
        accountId: id,
        path: 'defaultFor',
        code: 'account_not_found',
        message: `No account with id "${id}"`,
      })),
    );
  }
  return ids;
}
