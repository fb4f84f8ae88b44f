import type { Metadata } from 'next';
import Link from 'next/link';
import { ApprovalActions } from '#components/approvals/approval-actions.tsx';
import { ApprovalDecisions } from '#components/approvals/approval-decisions.tsx';
import { EmptyState } from '#components/empty-state.tsx';
import { accountName } from '#components/lib/platforms.ts';
import { formatDateTime } from '#components/lib/time.ts';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { getContext } from '#server/context.ts';
import { listPosts } from '#server/posts/list-posts.ts';
import type { PostView } from '#server/posts/schema.ts';
import { mayDecide } from '#server/ui/approvals.ts';
import { requestLocale } from '#server/ui/locale.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Approvals' };

const requestedWords = (post: PostView, tz: string, locale: string) => {
  const requested = post.approval?.requested;
  if (!requested || requested.postingMode === 'now') return 'publish now';
  if (requested.postingMode === 'queue') return 'add to the queue';
  return requested.scheduledAt
    ? `schedule for ${formatDateTime(requested.scheduledAt, tz, locale)}`
    : 'schedule';
};

/** Posts waiting for approval, newest first, each with approve and reject (docs/workspaces.md#approvals). */
export default async function ApprovalsPage() {
  const user = await requireUser();
  const ctx = await getContext();
  const [{ posts }, accounts, locale] = await Promise.all([
    listPosts(ctx, user.workspaceId, { status: 'pending_approval', limit: 200 }),
    listAccounts(ctx, user.workspaceId),
    requestLocale(),
  ]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return (
    <div className="page">
      <div className="page-head">
        <div>
          {/* Takes the focus after the last decision, when no item is left to move to. */}
          <h1 id="approvals-title" tabIndex={-1}>
            Approvals
          </h1>
          <p>Posts waiting for a decision, newest first. Approving does what the author asked.</p>
        </div>
      </div>
      <ApprovalDecisions fallbackFocusId="approvals-title">
        {posts.length === 0 ? (
          <EmptyState icon="check" title="Nothing waits for approval">
            Submitted posts appear here.
          </EmptyState>
        ) : (
          <ul className="list" aria-label="Posts waiting for approval">
            {posts.map((post) => {
              const excerpt = post.message.length > 80 ? `${post.message.slice(0, 79)}…` : post.message;
              return (
                <li key={post.id} className="card stack" style={{ gap: 8 }} data-testid="pending-post">
                  <p>
                    <Link href={`/posts/${post.id}`}>{excerpt || '(no text)'}</Link>
                  </p>
                  <p className="muted small">
                    {post.approval?.requestedBy.name ?? 'Someone'} asks to{' '}
                    {requestedWords(post, user.timezone, locale)}
                    {' · '}
                    {post.accountIds.map((id) => (byId.get(id) ? accountName(byId.get(id)!) : id)).join(', ')}
                    {post.approval
                      ? ` · submitted ${formatDateTime(post.approval.requestedAt, user.timezone, locale)}`
                      : ''}
                  </p>
                  {mayDecide(user, post) ? (
                    <ApprovalActions id={post.id} label={`“${excerpt}”`} />
                  ) : (
                    <p className="muted small">
                      {post.approval?.requestedBy.id === user.id
                        ? 'Yours: another member approves it.'
                        : 'Editors, admins and owners approve posts.'}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </ApprovalDecisions>
    </div>
  );
}
