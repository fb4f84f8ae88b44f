import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createWorkspace } from '#server/workspaces/create-workspace.ts';
import { listWorkspaces } from '#server/workspaces/list-workspaces.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { CreateWorkspaceRequest } from '#server/workspaces/schema.ts';

export const runtime = 'nodejs';

export const GET = route(workspacesRoutes.listWorkspaces, async ({ ctx, caller }) =>
  json(await listWorkspaces(ctx, caller)),
);

export const POST = route(workspacesRoutes.createWorkspace, async ({ request, ctx, caller }) => {
  const { name } = await readBody(request, CreateWorkspaceRequest);
  return json(await createWorkspace(ctx, caller, name), 201);
});
