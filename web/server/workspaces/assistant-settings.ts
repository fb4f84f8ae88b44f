import type { AppContext } from '#server/context.ts';
import { findWorkspace, mergeWorkspace } from './repository.ts';
import { settingsOf } from './view.ts';

/**
 * "Assistants must confirm" is the workspace setting `assistantsRequireApproval` now (the
 * migration moved each user's choice into their personal workspace); `/api/v1/mcp-clients/settings`
 * keeps its old shape over it (docs/workspaces.md#settings).
 */
export interface AssistantSettings {
  /** Assistants that cannot ask the user (no MCP elicitation) save a draft for approval instead of posting. */
  assistantsMustConfirm: boolean;
}

export interface AssistantPreferences extends AssistantSettings {
  /** The workspace's time zone, for the times an assistant shows. */
  timezone: string;
}

export async function getAssistantSettings(
  ctx: AppContext,
  workspaceId: string,
): Promise<AssistantPreferences> {
  const settings = settingsOf({ settings: (await findWorkspace(ctx, workspaceId))?.settings ?? {} });
  return { assistantsMustConfirm: settings.assistantsRequireApproval, timezone: settings.timezone };
}

export async function updateAssistantSettings(
  ctx: AppContext,
  workspaceId: string,
  settings: AssistantSettings,
): Promise<AssistantSettings> {
  await mergeWorkspace(ctx, workspaceId, {
    settings: { assistantsRequireApproval: settings.assistantsMustConfirm },
  });
  return settings;
}
