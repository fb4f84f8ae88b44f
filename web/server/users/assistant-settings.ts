import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { users } from '#server/db/schema.ts';

export interface AssistantSettings {
  /** Assistants that cannot ask the user (no MCP elicitation) save a draft for approval instead of posting. */
  assistantsMustConfirm: boolean;
}

export interface AssistantPreferences extends AssistantSettings {
  /** The user's time zone, for the times an assistant shows them. */
  timezone: string;
}

export async function getAssistantSettings(ctx: AppContext, userId: string): Promise<AssistantPreferences> {
  const [row] = await ctx.db
    .select({ assistantsMustConfirm: users.assistantsMustConfirm, timezone: users.timezone })
    .from(users)
    .where(eq(users.id, userId));
  return { assistantsMustConfirm: row?.assistantsMustConfirm ?? false, timezone: row?.timezone ?? 'UTC' };
}

export async function updateAssistantSettings(
  ctx: AppContext,
  userId: string,
  settings: AssistantSettings,
): Promise<AssistantSettings> {
  await ctx.db
    .update(users)
    .set({ assistantsMustConfirm: settings.assistantsMustConfirm, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return settings;
}
