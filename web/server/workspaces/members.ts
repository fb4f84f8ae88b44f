import { ProblemError, problem } from '@postwave/shared';
import type { Caller } from '#server/auth/caller.ts';
import { atLeast, forbiddenFor } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { findMembership, type Membership, otherOwnerCount } from './repository.ts';

/**
 * The rules every change of a member shares (docs/workspaces.md#members): the target must be a
 * member (else 404); an admin touches no owner and makes nobody owner (403, `requiredRole: owner`);
 * the last owner is never demoted nor removed (409 `last_owner`, checked under a lock of the
 * workspace row so two concurrent changes cannot both pass).
 */
export async function changeMember(
  ctx: AppContext,
  caller: Caller,
  targetUserId: string,
  newRole: WorkspaceRole | undefined,
  apply: (tx: Db, target: Membership) => Promise<void>,
): Promise<void> {
  if (!isUuid(targetUserId)) throw notFound('member');
  await inTransaction(ctx, async (tx) => {
    const target = await findMembership(tx, targetUserId, caller.workspaceId);
    if (!target) throw notFound('member');
    const touchesOwner = target.role === 'owner' || newRole === 'owner';
    if (touchesOwner && !atLeast(caller.role, 'owner'))
      throw forbiddenFor('owner', 'Only an owner may change an owner, or make someone owner');
    const losesOwner = target.role === 'owner' && newRole !== 'owner';
    if (losesOwner && (await otherOwnerCount(tx, caller.workspaceId, targetUserId)) === 0)
      throw new ProblemError(
        problem('last_owner', 'The workspace needs an owner: make another member owner first'),
      );
    await apply(tx, target);
  });
}
