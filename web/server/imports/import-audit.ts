import type { AuditActor } from '#server/audit/actor.ts';
import { type AuditEntryInput, justAfter } from '#server/audit/record-audit.ts';
import { type ResolvedRow, requestedMode } from './planned-rows.ts';

/**
 * The audit entries of a committed import (written in its transaction): one `post.created` per
 * post, then one `post.submitted` per submission (the rows of an importer whose posts need
 * approval that are not drafts), a millisecond later so newest-first lists them in order.
 */
export function importAuditEntries(
  resolved: readonly ResolvedRow[],
  by: { workspaceId: string; actor: AuditActor; submitting: boolean },
): AuditEntryInput[] {
  const stored = new Date();
  const submitted = (r: ResolvedRow) => requestedMode(r, by.submitting) !== undefined;
  const entry = (r: ResolvedRow) => ({
    workspaceId: by.workspaceId,
    actor: by.actor,
    target: { type: 'post' as const, id: r.report.postId! },
  });
  return [
    ...resolved.map((r) => ({
      ...entry(r),
      action: 'post.created' as const,
      details: {
        status: submitted(r) ? 'pending_approval' : r.post!.status === 'queue' ? 'scheduled' : r.post!.status,
        accounts: r.post!.accountIds.length,
        postingMode: 'import',
      },
      at: stored,
    })),
    ...resolved.filter(submitted).map((r) => ({
      ...entry(r),
      action: 'post.submitted' as const,
      details: {
        status: 'pending_approval',
        accounts: r.post!.accountIds.length,
        requested: requestedMode(r, by.submitting),
      },
      at: justAfter(stored),
    })),
  ];
}
