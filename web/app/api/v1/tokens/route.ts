import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { tokensRoutes } from '#server/tokens/routes.ts';
import { CreateTokenRequest } from '#server/tokens/schema.ts';
import { createToken, listTokens, personalTokenExpiry } from '#server/tokens/service.ts';

export const runtime = 'nodejs';

export const GET = route(tokensRoutes.listTokens, async ({ ctx, caller }) => {
  return json({ tokens: await listTokens(ctx, caller.userId) });
});

export const POST = route(tokensRoutes.createToken, async ({ request, ctx, caller }) => {
  const { name, expiresInDays } = await readBody(request, CreateTokenRequest);
  const created = await createToken(ctx, caller.userId, {
    name,
    expiresAt: personalTokenExpiry(expiresInDays),
  });
  return json(created, 201);
});
