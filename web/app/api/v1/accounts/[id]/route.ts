import { disconnectAccount } from '#server/accounts/disconnect-account.ts';
import { getAccountRow } from '#server/accounts/list-accounts.ts';
import { renameAccount } from '#server/accounts/rename-account.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { RenameAccountRequest } from '#server/accounts/schema.ts';
import { toView } from '#server/accounts/view.ts';
import { actorOf } from '#server/audit/actor.ts';
import { readBody } from '#server/http/body.ts';
import { json, noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(accountsRoutes.getAccount, async ({ ctx, caller, params: { id } }) => {
  const row = await getAccountRow(ctx, caller.workspaceId, id);
  if (!row) throw notFound('account');
  return json(toView(row));
});

export const PATCH = route(accountsRoutes.renameAccount, async ({ request, ctx, caller, params: { id } }) => {
  const { label } = await readBody(request, RenameAccountRequest);
  return json(await renameAccount(ctx, caller.workspaceId, id, label || null));
});

export const DELETE = route(accountsRoutes.disconnectAccount, async ({ ctx, caller, params: { id } }) => {
  await disconnectAccount(ctx, caller.workspaceId, id, actorOf(caller));
  return noContent();
});
