import { z } from 'zod';
import { disconnectAccount, getAccountRow, renameAccount, toView } from '#server/accounts/service.ts';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody } from '#server/http/body.ts';
import { json, noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

const RenameRequest = z.object({ label: z.string().trim().max(200).nullable() });

export const GET = route<{ id: string }>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  const row = await getAccountRow(ctx, caller.userId, id);
  if (!row) throw notFound('account');
  return json(toView(row));
});

export const PATCH = route<{ id: string }>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  const { label } = await readBody(request, RenameRequest);
  return json(await renameAccount(ctx, caller.userId, id, label || null));
});

export const DELETE = route<{ id: string }>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  await disconnectAccount(ctx, caller.userId, id);
  return noContent();
});
