import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { deleteSnippet } from '#server/snippets/delete-snippet.ts';
import { snippetsRoutes } from '#server/snippets/routes.ts';
import { UpdateSnippetRequest } from '#server/snippets/schema.ts';
import { updateSnippet } from '#server/snippets/update-snippet.ts';

export const runtime = 'nodejs';

export const PATCH = route(snippetsRoutes.updateSnippet, async ({ request, ctx, caller, params: { id } }) => {
  const patch = await readBody(request, UpdateSnippetRequest);
  return json(await updateSnippet(ctx, caller.workspaceId, id, patch));
});

export const DELETE = route(snippetsRoutes.deleteSnippet, async ({ ctx, caller, params: { id } }) => {
  await deleteSnippet(ctx, caller.workspaceId, id);
  return noContent();
});
