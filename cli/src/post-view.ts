import { UsageError } from './command.ts';
import { preview } from './format.ts';
import type { PostView } from './responses.ts';

/** The statuses `--status` takes (the Scheduler's post statuses, OpenAPI `Post.status`). */
export const postStatuses = ['draft', 'scheduled', 'posted', 'failed', 'pending_approval'] as const;

/** A usage error for a `--status` the Scheduler has no posts in. */
export function checkStatus(status: string | undefined): void {
  if (status !== undefined && !(postStatuses as readonly string[]).includes(status))
    throw new UsageError(`--status is one of ${postStatuses.join(', ')}`);
}

/** A post with one line per account (and per thread part and first comment). */
export function describePost(p: PostView): string {
  const lines = [`Post ${p.id}: ${p.status}`];
  if (p.scheduledAt && p.status === 'scheduled') lines.push(`Scheduled for ${p.scheduledAt}`);
  if (p.postedAt) lines.push(`Posted at ${p.postedAt}`);
  const approval = p.approval;
  if (p.status === 'pending_approval' && approval) {
    const { postingMode, scheduledAt } = approval.requested;
    const asked =
      postingMode === 'now'
        ? 'publish now'
        : postingMode === 'queue'
          ? 'add to the queue'
          : `schedule for ${scheduledAt ?? p.scheduledAt ?? '?'}`;
    lines.push(`Submitted for approval (${asked}): nothing is published until a member approves it.`);
  }
  if (p.status === 'draft' && approval?.rejected)
    lines.push(`Sent back by ${approval.rejected.by.name}: ${preview(approval.rejected.comment, 200)}`);
  lines.push(`Message: ${preview(p.message, 200)}`);
  for (const r of p.results) {
    lines.push(
      `  ${r.status.padEnd(7)} ${r.accountId} (${r.platform})${r.url ? ` ${r.url}` : ''}${r.error ? `: ${r.error.message}` : ''}`,
    );
    for (const part of r.parts ?? []) {
      if (part.index > 0)
        lines.push(`    part ${part.index}: ${part.status}${part.url ? ` ${part.url}` : ''}`);
    }
    if (r.firstComment) {
      lines.push(
        `    first comment: ${r.firstComment.status}${r.firstComment.url ? ` ${r.firstComment.url}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
