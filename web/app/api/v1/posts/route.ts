import { ProblemError, parsePostRequest, problem } from '@postwave/shared';
import { z } from 'zod';
import { requireCaller } from '#server/auth/caller.ts';
import { postStatuses } from '#server/db/schema.ts';
import { readJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { idempotent } from '#server/idempotency/idempotency.ts';
import { createPost, listPosts } from '#server/posts/service.ts';

export const runtime = 'nodejs';

const ListQuery = z.object({
  status: z.enum(postStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  const query = ListQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    throw new ProblemError(
      problem('invalid_request', 'status must be draft, scheduled, posted or failed; limit 1 to 200'),
    );
  }
  return json(await listPosts(ctx, caller.userId, query.data));
});

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  const body = await readJson(request);
  return idempotent(ctx, caller.userId, request, body, async () => ({
    status: 201,
    body: await createPost(ctx, caller.userId, parsePostRequest(body)),
  }));
});
