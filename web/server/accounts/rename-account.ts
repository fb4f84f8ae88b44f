import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { updateAccount } from './repository.ts';
import type { AccountView } from './schema.ts';
import { toView } from './view.ts';

export async function renameAccount(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  label: string | null,
): Promise<AccountView> {
  if (!isUuid(accountId)) throw notFound('account');
  const row = await updateAccount(ctx, accountId, { label }, workspaceId);
  if (!row) throw notFound('account');
  return toView(row);
}
