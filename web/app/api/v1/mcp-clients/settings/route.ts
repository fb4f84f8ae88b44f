import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { AssistantSettings, mcpRoutes } from '#server/mcp/routes.ts';
import { getAssistantSettings, updateAssistantSettings } from '#server/workspaces/assistant-settings.ts';

export const runtime = 'nodejs';

export const GET = route(mcpRoutes.getAssistantSettings, async ({ ctx, caller }) => {
  const { assistantsMustConfirm } = await getAssistantSettings(ctx, caller.workspaceId);
  return json({ assistantsMustConfirm });
});

export const PUT = route(mcpRoutes.updateAssistantSettings, async ({ request, ctx, caller }) => {
  const body = await readBody(request, AssistantSettings);
  return json(await updateAssistantSettings(ctx, caller.workspaceId, body));
});
