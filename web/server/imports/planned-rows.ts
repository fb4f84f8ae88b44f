import { approvalOf } from '#server/approvals/submit-post.ts';
import type { ApprovalActor } from '#server/db/schema.ts';
import type { NewPostRow } from '#server/posts/repository.ts';
import type { ImportRowReport } from './schema.ts';

/** What an import row creates: the post's content and how it is timed. */
export type ImportedPost = Pick<
  NewPostRow,
  'message' | 'accountIds' | 'media' | 'accountOptions' | 'overrides' | 'thread' | 'recycle'
> &
  (
    | { status: 'draft'; scheduledAt: Date | null }
    | { status: 'scheduled'; scheduledAt: Date }
    /** The next free common slot of the accounts' queues, chosen at commit under the queue lock. */
    | { status: 'queue'; scheduledAt: Date | undefined }
  );

/** A row ready to become a post, once every row is valid. */
export interface ResolvedRow {
  report: ImportRowReport;
  post: ImportedPost | undefined;
}

/**
 * What a row asks for when its importer's posts need approval (`submitting`): `schedule` or
 * `queue`, a submission; undefined for a draft, or when nothing needs approval.
 */
export function requestedMode(row: ResolvedRow, submitting: boolean): 'schedule' | 'queue' | undefined {
  if (!submitting || row.post!.status === 'draft') return undefined;
  return row.post!.status === 'queue' ? 'queue' : 'schedule';
}

/**
 * The rows of a valid import as posts to insert, in file order: `ready` (drafts, and rows at a
 * fixed time), `queued` (their slot is chosen in the commit, under the queue lock) and `submitted`
 * (scheduled and queued rows of an importer whose posts need approval). Gives each row its post id.
 */
export function plannedRows(
  resolved: readonly ResolvedRow[],
  by: { workspaceId: string; authorId: string | undefined; submitAs: ApprovalActor | undefined; now: number },
) {
  const ready: NewPostRow[] = [];
  const queued: { row: ResolvedRow; values: Omit<NewPostRow, 'status'> }[] = [];
  const submitted: NewPostRow[] = [];
  resolved.forEach((r, i) => {
    const id = crypto.randomUUID();
    r.report.postId = id;
    // One millisecond apart, so the posts list (newest first) keeps the file's order reversed.
    const createdAt = new Date(by.now + i);
    const { status, scheduledAt, ...content } = r.post!;
    const values = {
      id,
      workspaceId: by.workspaceId,
      userId: by.authorId ?? null,
      ...content,
      createdAt,
      updatedAt: createdAt,
    };
    const postingMode = requestedMode(r, by.submitAs !== undefined);
    if (by.submitAs && postingMode) {
      const when = scheduledAt ?? undefined;
      submitted.push({
        ...values,
        status: 'pending_approval',
        scheduledAt: scheduledAt ?? null,
        approval: approvalOf({ postingMode, scheduledAt: when }, by.submitAs, when, 'approvals'),
      });
    } else if (status === 'queue') queued.push({ row: r, values });
    else if (status === 'scheduled')
      ready.push({ ...values, status, scheduledAt, nextAttemptAt: scheduledAt });
    else ready.push({ ...values, status, scheduledAt });
  });
  return { ready, queued, submitted };
}
