import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { auth } from '#server/auth/next-auth.ts';
import { sessionCookieName, sessionCookieOptions, sessionValueIn } from '#server/auth/session.ts';
import { getContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { sessionUser } from '#server/users/get-user.ts';
import { sessionWorkspace } from '#server/workspaces/membership.ts';

export interface UiUser {
  id: string;
  email: string;
  name: string | null;
  timezone: string;
  /** False until a password sign-up followed its verification link (see docs/security-scheduler.md). */
  emailVerified: boolean;
  /** The session's current workspace, which every page acts in (docs/workspaces.md#switching). */
  workspaceId: string;
  workspaceName: string;
  role: WorkspaceRole;
}

/** The signed-in user for a server component, or undefined. */
export async function currentUser(): Promise<UiUser | undefined> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return undefined;
  const ctx = await getContext();
  const row = await sessionUser(ctx, id, (session as { authTime?: unknown }).authTime);
  if (!row) return undefined;
  const { workspace, role } = await sessionWorkspace(
    ctx,
    row.id,
    (session as { workspaceId?: string }).workspaceId,
  );
  return {
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    role,
    id: row.id,
    email: row.email,
    name: row.name,
    timezone: row.timezone,
    emailVerified: row.emailVerifiedAt !== null,
  };
}

/** The signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<UiUser> {
  const user = await currentUser();
  if (!user) redirect('/signin');
  return user;
}

/**
 * Makes this browser's session act in `workspaceId` (a server action's switch or accepted
 * invitation): its cookie is re-issued with it, so the user's other sessions stay where they are.
 */
export async function sessionActsIn(workspaceId: string): Promise<void> {
  const config = (await getContext()).config;
  const store = await cookies();
  const name = sessionCookieName(config);
  const value = await sessionValueIn(config, store.get(name)?.value, workspaceId);
  if (value) store.set(name, value, sessionCookieOptions(config));
}
