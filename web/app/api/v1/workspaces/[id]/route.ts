import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { deleteWorkspace } from '#server/workspaces/delete-workspace.ts';
import { getWorkspace } from '#server/workspaces/get-workspace.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { UpdateWorkspaceRequest } from '#server/workspaces/schema.ts';
import { updateWorkspace } from '#server/workspaces/update-workspace.ts';

export const runtime = 'nodejs';

export const GET = route(workspacesRoutes.getWorkspace, async ({ ctx, caller }) =>
  json(await getWorkspace(ctx, caller)),
);

export const PATCH = route(workspacesRoutes.updateWorkspace, async ({ request, ctx, caller }) =>
  json(await updateWorkspace(ctx, caller, await readBody(request, UpdateWorkspaceRequest))),
);

export const DELETE = route(workspacesRoutes.deleteWorkspace, async ({ ctx, caller }) => {
  await deleteWorkspace(ctx, caller);
  return noContent();
});
