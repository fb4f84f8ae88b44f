import { connectAccount } from '#server/accounts/connect-account.ts';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { ConnectAccountRequest } from '#server/accounts/schema.ts';
import { actorOf } from '#server/audit/actor.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(accountsRoutes.listAccounts, async ({ ctx, caller }) =>
  json({ accounts: await listAccounts(ctx, caller.workspaceId) }),
);

export const POST = route(accountsRoutes.connectAccount, async ({ request, ctx, caller }) => {
  const { account } = await connectAccount(
    ctx,
    caller.workspaceId,
    await readBody(request, ConnectAccountRequest),
    actorOf(caller),
  );
  // 201 also when the account was already connected (contract B: `201 Account` once verified), as
  // the picker answers: the same id, its credentials and profile updated.
  return json(account, 201);
});
