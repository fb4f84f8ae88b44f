import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createTemplate } from '#server/templates/create-template.ts';
import { listTemplates } from '#server/templates/list-templates.ts';
import { templatesRoutes } from '#server/templates/routes.ts';
import { CreateTemplateRequest } from '#server/templates/schema.ts';

export const runtime = 'nodejs';

export const GET = route(templatesRoutes.listTemplates, async ({ ctx, caller }) => {
  return json({ templates: await listTemplates(ctx, caller.workspaceId) });
});

export const POST = route(templatesRoutes.createTemplate, async ({ request, ctx, caller }) => {
  const input = await readBody(request, CreateTemplateRequest);
  return json(await createTemplate(ctx, caller.workspaceId, input), 201);
});
