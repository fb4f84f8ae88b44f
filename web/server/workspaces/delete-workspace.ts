import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { notFound } from '#server/http/respond.ts';
import { storedKeysOf } from '#server/media/repository.ts';
import { deleteWorkspace as deleteRow, lockWorkspace } from './repository.ts';

/** Stored objects removed at once: a big library should not take one round trip per file in turn. */
const deleteConcurrency = 8;

/**
 * `DELETE /api/v1/workspaces/{id}` (owners): every resource the workspace owns goes with it, its
 * members' tokens and MCP grants for it too. A member left without any workspace gets a new
 * personal one on their next request (membership.ts).
 *
 * Its media rows cascade away in the database, but `GET /media/{key}` serves straight from
 * storage, so the stored files (and thumbnails or posters) are removed too, once the delete has
 * committed: a rollback then never leaves rows pointing at removed files.
 */
export async function deleteWorkspace(ctx: AppContext, caller: Caller): Promise<void> {
  const workspaceId = caller.workspaceId;
  const keys = await inTransaction(ctx, async (tx) => {
    // Locked before listing: an upload recording its row meanwhile waits for the delete (and then
    // fails on the missing workspace) rather than cascading away with a file nobody listed.
    if (!(await lockWorkspace(tx, workspaceId))) throw notFound('workspace');
    const stored = await storedKeysOf(tx, workspaceId);
    await deleteRow(tx, workspaceId);
    return stored;
  });
  await removeStoredObjects(ctx, workspaceId, keys);
}

/**
 * Best effort: the workspace is gone whatever storage answers. Nothing records a leftover for a
 * later retry, so each one is logged at error level with its key for an operator to remove.
 */
async function removeStoredObjects(ctx: AppContext, workspaceId: string, keys: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      await ctx.storage.delete(key).catch((error: unknown) => {
        ctx.logger.error(
          { err: error, key, workspaceId },
          'could not remove a deleted workspace’s media file from storage; it is still served',
        );
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(deleteConcurrency, keys.length) }, worker));
}
