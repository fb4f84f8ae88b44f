import type { AppContext } from '#server/context.ts';
import * as repo from './repository.ts';

export interface AssistantSettings {
  /** Assistants that cannot ask the user (no MCP elicitation) save a draft for approval instead of posting. */
  assistantsMustConfirm: boolean;
}

export interface AssistantPreferences extends AssistantSettings {
  /** The user's time zone, for the times an assistant shows them. */
  timezone: string;
}

export async function getAssistantSettings(ctx: AppContext, userId: string): Promise<AssistantPreferences> {
  const row = await repo.findUser(ctx, userId);
  return { assistantsMustConfirm: row?.assistantsMustConfirm ?? false, timezone: row?.timezone ?? 'UTC' };
}

export async function updateAssistantSettings(
  ctx: AppContext,
  userId: string,
  settings: AssistantSettings,
): Promise<AssistantSettings> {
  await repo.setAssistantsMustConfirm(ctx, userId, settings.assistantsMustConfirm);
  return settings;
}
