import { invalidRequest } from '@postwave/shared';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody, readJson } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { idempotent } from '#server/idempotency/idempotency.ts';
import { PostActionRequest, PostPatchRequest, toPostAction, toPostPatch } from '#server/posts/schema.ts';
import { actOnPost, deletePost, getPost, updatePost } from '#server/posts/service.ts';

export const runtime = 'nodejs';

type Params = { id: string };

export const GET = route<Params>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  return json(await getPost(ctx, caller.userId, id));
});

export const PATCH = route<Params>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  const patch = toPostPatch(await readBody(request, PostPatchRequest));
  return json(await updatePost(ctx, caller.userId, id, patch));
});

export const POST = route<Params>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  const body = await readJson(request);
  return idempotent(ctx, caller.userId, request, body, async () => {
    const parsed = PostActionRequest.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    return { status: 200, body: await actOnPost(ctx, caller.userId, id, toPostAction(parsed.data)) };
  });
});

export const DELETE = route<Params>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  await deletePost(ctx, caller.userId, id);
  return noContent();
});
