import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createSnippet } from '#server/snippets/create-snippet.ts';
import { listSnippets } from '#server/snippets/list-snippets.ts';
import { snippetsRoutes } from '#server/snippets/routes.ts';
import { CreateSnippetRequest } from '#server/snippets/schema.ts';

export const runtime = 'nodejs';

export const GET = route(snippetsRoutes.listSnippets, async ({ ctx, caller }) => {
  return json({ snippets: await listSnippets(ctx, caller.workspaceId) });
});

export const POST = route(snippetsRoutes.createSnippet, async ({ request, ctx, caller }) => {
  const input = await readBody(request, CreateSnippetRequest);
  return json(await createSnippet(ctx, caller.workspaceId, input), 201);
});
