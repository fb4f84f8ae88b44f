import { z } from 'zod';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createToken, listTokens } from '#server/tokens/service.ts';

export const runtime = 'nodejs';

const CreateTokenRequest = z.object({ name: z.string().trim().min(1).max(100) });

export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  return json({ tokens: await listTokens(ctx, caller.userId) });
});

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const { name } = await readBody(request, CreateTokenRequest);
  const created = await createToken(ctx, caller.userId, { name });
  return json(created, 201);
});
