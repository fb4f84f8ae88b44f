import { assertCan, forbiddenFor } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { ownedPost } from './guards.ts';

/** A member acting on posts: a REST caller or an MCP actor's resolved role. */
export interface PostActor {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
}

/**
 * Beyond the route's permission (docs/workspaces.md#roles): publishing now, scheduling and
 * queueing need `posts.publish`, a draft only `posts.draft`.
 */
export function assertMayPost(actor: PostActor, postingMode: string | undefined): void {
  if (postingMode !== undefined && postingMode !== 'draft') assertCan(actor.role, 'posts.publish');
}

/**
 * Contributors edit their own posts only; another member's post (in the same workspace) answers
 * 403 `forbidden` naming `editor`. A post of another workspace is 404 (from `ownedPost`).
 */
export async function assertMayEditPost(ctx: AppContext, actor: PostActor, postId: string): Promise<void> {
  if (actor.role !== 'contributor') return;
  const row = await ownedPost(ctx, actor.workspaceId, postId);
  if (row.userId !== actor.userId)
    throw forbiddenFor('editor', 'Contributors may change only their own posts');
}
