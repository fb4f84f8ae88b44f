import { assertCan } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { findWorkspace } from '#server/workspaces/repository.ts';
import type { WorkspaceSettings } from '#server/workspaces/schema.ts';
import { settingsOf } from '#server/workspaces/view.ts';

/** What a publish, schedule or queue request becomes: done at once, or a submission for approval. */
export type PostingDecision = 'publish' | 'submit';

/**
 * Whether the workspace's `approvals` setting applies to `role` (docs/workspaces.md#approvals):
 * contributors always unless it is `off`, everyone under `everyone`.
 */
export function approvalApplies(role: WorkspaceRole, approvals: WorkspaceSettings['approvals']): boolean {
  if (approvals === 'off') return false;
  return approvals === 'everyone' || role === 'contributor';
}

export async function workspaceSettings(ctx: AppContext, workspaceId: string): Promise<WorkspaceSettings> {
  return settingsOf({ settings: (await findWorkspace(ctx, workspaceId))?.settings ?? {} });
}

/**
 * A request to publish now, schedule or queue by a member with `role`: a submission where the
 * workspace wants approval, else it needs `posts.publish` (403 `forbidden` naming `editor` for a
 * contributor when approvals are `off`). `assistant` is true for an MCP assistant's request, which
 * is a submission too when the workspace sets `assistantsRequireApproval`.
 */
export async function decidePosting(
  ctx: AppContext,
  actor: { workspaceId: string; role: WorkspaceRole },
  options: { assistant?: boolean } = {},
): Promise<PostingDecision> {
  const settings = await workspaceSettings(ctx, actor.workspaceId);
  if (approvalApplies(actor.role, settings.approvals)) return 'submit';
  if (options.assistant && settings.assistantsRequireApproval) {
    // An assistant submits for the member who granted it; a role that may not even draft stays refused.
    assertCan(actor.role, 'posts.draft');
    return 'submit';
  }
  assertCan(actor.role, 'posts.publish');
  return 'publish';
}
