import { commentOnPost, listPostComments } from '#server/comments/member-comments.ts';
import { commentsRoutes } from '#server/comments/routes.ts';
import { CreateCommentRequest } from '#server/comments/schema.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(commentsRoutes.listPostComments, async ({ ctx, caller, params }) =>
  json({ comments: await listPostComments(ctx, caller, params.id) }),
);

export const POST = route(commentsRoutes.createPostComment, async ({ request, ctx, caller, params }) => {
  const { body } = await readBody(request, CreateCommentRequest);
  return json(await commentOnPost(ctx, caller, params.id, body), 201);
});
