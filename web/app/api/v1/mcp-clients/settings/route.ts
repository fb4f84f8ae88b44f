import { z } from 'zod';
import { requireCaller } from '../../../../../server/auth/caller.ts';
import { readBody } from '../../../../../server/http/body.ts';
import { json } from '../../../../../server/http/respond.ts';
import { route } from '../../../../../server/http/route.ts';
import {
  getAssistantSettings,
  updateAssistantSettings,
} from '../../../../../server/services/assistant-settings.ts';

export const runtime = 'nodejs';

const AssistantSettingsRequest = z.object({ assistantsMustConfirm: z.boolean() });

/** How assistants (MCP clients) may act: `assistantsMustConfirm` (browser session only). */
export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const { assistantsMustConfirm } = await getAssistantSettings(ctx, caller.userId);
  return json({ assistantsMustConfirm });
});

export const PUT = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const body = await readBody(request, AssistantSettingsRequest);
  return json(await updateAssistantSettings(ctx, caller.userId, body));
});
