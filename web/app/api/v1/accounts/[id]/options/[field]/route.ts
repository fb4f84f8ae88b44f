import { listOptionChoices } from '#server/accounts/option-choices.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(accountsRoutes.listOptionChoices, async ({ request, ctx, caller, params }) =>
  json(
    await listOptionChoices(
      ctx,
      caller.workspaceId,
      params.id,
      params.field,
      new URL(request.url).searchParams,
    ),
  ),
);
