import type { Db } from '#server/db/access.ts';
import { insertWorkspace, setCurrentWorkspace, type WorkspaceRow } from './repository.ts';
import { initialSettings } from './view.ts';

/** "Ada's workspace": a person's name, else their e-mail address. */
export function personalWorkspaceName(user: { name: string | null; email: string }): string {
  return `${user.name?.trim() || user.email}'s workspace`;
}

/**
 * Every user has a workspace of their own from the start (sign-up, a first sign-in with GitHub or
 * Google), made their current one; run in the transaction that creates the user.
 */
export async function createPersonalWorkspace(
  ctx: Db,
  user: { id: string; name: string | null; email: string; timezone?: string },
): Promise<WorkspaceRow> {
  const workspace = await insertWorkspace(ctx, {
    id: crypto.randomUUID(),
    name: personalWorkspaceName(user),
    settings: initialSettings(user.timezone),
    userId: user.id,
    now: new Date(),
  });
  await setCurrentWorkspace(ctx, user.id, workspace.id);
  return workspace;
}
