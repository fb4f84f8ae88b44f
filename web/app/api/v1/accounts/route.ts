import { z } from 'zod';
import { connectAccount, listAccounts } from '#server/accounts/service.ts';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const ConnectAccountRequest = z.object({
  platform: z.string().min(1).max(50),
  platformAccountId: z.string().min(1).max(300).optional(),
  credentials: z.record(z.string(), z.unknown()),
  label: z.string().max(200).optional(),
});

export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  return json({ accounts: await listAccounts(ctx, caller.userId) });
});

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  const { account, created } = await connectAccount(
    ctx,
    caller.userId,
    await readBody(request, ConnectAccountRequest),
  );
  return json(account, created ? 201 : 200);
});
