import { z } from 'zod';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import {
  createToken,
  defaultPersonalTokenLifetimeDays,
  listTokens,
  personalTokenExpiry,
} from '#server/services/tokens.ts';

export const runtime = 'nodejs';

const CreateTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  /** 30, 90 (default) or 365 days: a personal token never lives longer than a year. */
  expiresInDays: z
    .union([z.literal(30), z.literal(90), z.literal(365)])
    .default(defaultPersonalTokenLifetimeDays),
});

export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  return json({ tokens: await listTokens(ctx, caller.userId) });
});

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const { name, expiresInDays } = await readBody(request, CreateTokenRequest);
  const created = await createToken(ctx, caller.userId, {
    name,
    expiresAt: personalTokenExpiry(expiresInDays),
  });
  return json(created, 201);
});
