import { assertCan } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { findWorkspace } from '#server/workspaces/repository.ts';
import type { WorkspaceSettings } from '#server/workspaces/schema.ts';
import { settingsOf } from '#server/workspaces/view.ts';

/** What a publish, schedule or queue request becomes: done at once, or a submission for approval. */
export type PostingDecision = 'publish' | 'submit';

/**
 * Whether the workspace's `approvals` setting applies to `role` (contract G, docs/workspaces.md#approvals):
 * contributors always (their role is "submit only", whatever the setting), everyone under `everyone`.
 */
export function approvalApplies(role: WorkspaceRole, approvals: WorkspaceSettings['approvals']): boolean {
  return role === 'contributor' || approvals === 'everyone';
}

export async function workspaceSettings(ctx: AppContext, workspaceId: string): Promise<WorkspaceSettings> {
  return settingsOf({ settings: (await findWorkspace(ctx, workspaceId))?.settings ?? {} });
}

/**
 * A request to publish now, schedule or queue by a member with `role`: a submission where the
 * workspace wants approval (a contributor's always), else it needs `posts.publish` (403
 * `forbidden` naming `editor` for a viewer). `assistant` is true for an MCP assistant's request, which
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
