import { readBody } from '#server/http/body.ts';
import { json, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { tokensRoutes } from '#server/tokens/routes.ts';
import { CreateTokenRequest } from '#server/tokens/schema.ts';
import { createToken, listTokens, personalTokenExpiry } from '#server/tokens/service.ts';
import { boundWorkspace } from '#server/workspaces/membership.ts';

export const runtime = 'nodejs';

export const GET = route(tokensRoutes.listTokens, async ({ ctx, caller }) => {
  return json({ tokens: await listTokens(ctx, caller.userId, caller.workspaceId) });
});

export const POST = route(tokensRoutes.createToken, async ({ request, ctx, caller }) => {
  const {
    name,
    expiresInDays,
    workspaceId = caller.workspaceId,
  } = await readBody(request, CreateTokenRequest);
  // A token acts with its member's role in the workspace it is bound to: only one they belong to.
  if (workspaceId !== caller.workspaceId && !(await boundWorkspace(ctx, caller.userId, workspaceId)))
    throw notFound('workspace');
  const created = await createToken(ctx, caller.userId, {
    name,
    workspaceId,
    // The schema refused anything but a whole number of days from 1 to 365.
    expiresAt: personalTokenExpiry(expiresInDays),
  });
  return json(created, 201);
});
