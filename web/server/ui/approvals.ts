import { approvalApplies, workspaceSettings } from '#server/approvals/policy.ts';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import type { PostView } from '#server/posts/schema.ts';
import type { UiUser } from './session.ts';

/** Whether the composer offers "Submit for approval" instead of publishing (docs/workspaces.md#approvals). */
export async function submissionsNeedApproval(user: Pick<UiUser, 'workspaceId' | 'role'>): Promise<boolean> {
  const settings = await workspaceSettings(await getContext(), user.workspaceId);
  return approvalApplies(user.role, settings.approvals);
}

/**
 * Whether to offer approve and reject: editors and up, not to the submitter (an assistant's hold
 * is its member's to confirm). The server checks the author again (403 `self_approval`).
 */
export function mayDecide(
  user: Pick<UiUser, 'id' | 'role'>,
  post: Pick<PostView, 'status' | 'approval'>,
): boolean {
  if (post.status !== 'pending_approval' || !can(user.role, 'posts.approve')) return false;
  if (post.approval?.reason === 'assistants') return true;
  return post.approval?.requestedBy.id !== user.id;
}
