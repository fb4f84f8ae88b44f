import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { findWorkspace, insertWorkspace } from './repository.ts';
import type { WorkspaceView } from './schema.ts';
import { initialSettings, settingsOf, toWorkspaceView } from './view.ts';

/**
 * `POST /api/v1/workspaces`: a new workspace with the caller as its owner, in the time zone of the
 * one they act in. It does not become current: the switcher (or `…/switch`) does that.
 */
export async function createWorkspace(ctx: AppContext, caller: Caller, name: string): Promise<WorkspaceView> {
  const current = await findWorkspace(ctx, caller.workspaceId);
  const timezone = current ? settingsOf(current).timezone : 'UTC';
  const workspace = await inTransaction(ctx, (tx) =>
    insertWorkspace(tx, {
      id: crypto.randomUUID(),
      name,
      settings: initialSettings(timezone),
      userId: caller.userId,
      now: new Date(),
    }),
  );
  return toWorkspaceView({ workspace, role: 'owner' });
}
