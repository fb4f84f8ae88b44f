import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { deleteTemplate } from '#server/templates/delete-template.ts';
import { getTemplate } from '#server/templates/get-template.ts';
import { templatesRoutes } from '#server/templates/routes.ts';
import { UpdateTemplateRequest } from '#server/templates/schema.ts';
import { updateTemplate } from '#server/templates/update-template.ts';

export const runtime = 'nodejs';

export const GET = route(templatesRoutes.getTemplate, async ({ ctx, caller, params: { id } }) => {
  return json(await getTemplate(ctx, caller.workspaceId, id));
});

export const PATCH = route(
  templatesRoutes.updateTemplate,
  async ({ request, ctx, caller, params: { id } }) => {
    const patch = await readBody(request, UpdateTemplateRequest);
    return json(await updateTemplate(ctx, caller.workspaceId, id, patch));
  },
);

export const DELETE = route(templatesRoutes.deleteTemplate, async ({ ctx, caller, params: { id } }) => {
  await deleteTemplate(ctx, caller.workspaceId, id);
  return noContent();
});
