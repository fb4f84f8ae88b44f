import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { isUuid } from '#server/http/ids.ts';
import { findUser } from '#server/users/repository.ts';
import { createPersonalWorkspace } from './personal.ts';
import { findMembership, type Membership, sessionMembership } from './repository.ts';

/**
 * The workspace a browser session acts in: the session's own (`preferred`, kept in its cookie:
 * set at sign-in and by a switch in that browser) while the user is still a member of it; else the
 * user's last chosen one, else the oldest they belong to. A user left with none (they deleted their
 * last) gets a new personal workspace, so a session always has one (docs/workspaces.md#switching).
 */
export async function sessionWorkspace(
  ctx: AppContext,
  userId: string,
  preferred?: string,
): Promise<Membership> {
  const own = preferred && isUuid(preferred) ? await findMembership(ctx, userId, preferred) : undefined;
  if (own) return own;
  const found = await sessionMembership(ctx, userId);
  if (found) return found;
  const user = await findUser(ctx, userId);
  if (!user) throw new Error('session user vanished');
  return inTransaction(ctx, async (tx) => {
    const workspace = await createPersonalWorkspace(tx, user);
    return { workspace, role: 'owner' as const };
  });
}

/**
 * A token's workspace, checked on every request: a member removed from it (or the workspace
 * deleted) ends the token at once, whatever the token row says.
 */
export function boundWorkspace(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
): Promise<Membership | undefined> {
  return isUuid(workspaceId) ? findMembership(ctx, userId, workspaceId) : Promise.resolve(undefined);
}
