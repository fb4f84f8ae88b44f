import type { AppContext } from '#server/context.ts';
import { signUp } from '#server/users/sign-up.ts';
import { sessionWorkspace } from '#server/workspaces/membership.ts';

/**
 * A new user (as `signUp` makes them) and their personal workspace, which owns what they
 * connect and post (docs/workspaces.md): service tests act in `workspaceId`.
 */
export async function signUpWithWorkspace(
  ctx: AppContext,
  input: Parameters<typeof signUp>[1],
): Promise<{ id: string; email: string; userId: string; workspaceId: string }> {
  const user = await signUp(ctx, input);
  const { workspace } = await sessionWorkspace(ctx, user.id);
  return { id: workspace.id, email: user.email, userId: user.id, workspaceId: workspace.id };
}
