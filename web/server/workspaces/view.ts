import type { StoredWorkspaceSettings } from '#server/db/schema.ts';
import type { Membership, WorkspaceRow } from './repository.ts';
import { WorkspaceSettings as SettingsSchema, type WorkspaceSettings, type WorkspaceView } from './schema.ts';

/** Stored settings with the defaults filled in (a value that no longer parses falls back to its default). */
export function settingsOf(row: Pick<WorkspaceRow, 'settings'>): WorkspaceSettings {
  const parsed = SettingsSchema.safeParse(row.settings ?? {});
  return parsed.success ? parsed.data : SettingsSchema.parse({});
}

export function toWorkspaceView({ workspace, role }: Membership): WorkspaceView {
  return {
    id: workspace.id,
    name: workspace.name,
    role,
    settings: settingsOf(workspace),
    createdAt: workspace.createdAt.toISOString(),
  };
}

/** The settings a new workspace starts with. */
export function initialSettings(timezone = 'UTC'): StoredWorkspaceSettings {
  return { approvals: 'contributors', timezone, assistantsRequireApproval: false };
}
