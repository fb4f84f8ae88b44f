import type { Metadata } from 'next';
import Link from 'next/link';
import { AccountsAtRisk } from '#components/accounts/health.tsx';
import { PostMetricsSection } from '#components/analytics/post-metrics.tsx';
import { ApprovalActions } from '#components/approvals/approval-actions.tsx';
import { ApprovalDecisions } from '#components/approvals/approval-decisions.tsx';
import { SaveAsTemplate } from '#components/compose/save-as-template.tsx';
import { Icon } from '#components/icons.tsx';
import { accountName } from '#components/lib/platforms.ts';
import { formatDateTime } from '#components/lib/time.ts';
import { LiveStatus } from '#components/posts/live-status.tsx';
import { Outgoing } from '#components/posts/outgoing.tsx';
import { PostActions } from '#components/posts/post-actions.tsx';
import { PostComments } from '#components/posts/post-comments.tsx';
import { PostTimeline } from '#components/posts/post-timeline.tsx';
import { RecycleChain } from '#components/posts/recycle-chain.tsx';
import { ReviewLinks } from '#components/review/review-links.tsx';
import '#components/analytics/analytics.css';
import { StatusBadge } from '#components/posts/status.tsx';
import { TargetResults } from '#components/posts/target-results.tsx';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { getPostMetrics } from '#server/analytics/get-post-metrics.ts';
import { can } from '#server/auth/permissions.ts';
import { listComments } from '#server/comments/list-comments.ts';
import { getContext } from '#server/context.ts';
import { getPost } from '#server/posts/get-post.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { listPostEvents } from '#server/posts/history.ts';
import { getRecycleChain } from '#server/posts/recycle-chain.ts';
import { mayDecide, submissionsNeedApproval } from '#server/ui/approvals.ts';
import { requestLocale } from '#server/ui/locale.ts';
import { foundOr404 } from '#server/ui/not-found.ts';
import { openApprovalRequest } from '#server/ui/post-approval.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Post' };

const doneNotes: Record<string, string> = {
  now: 'Published.',
  schedule: 'Scheduled. Postwave will publish it at the time you chose.',
  draft: 'Draft saved.',
  queue: 'Added to the queue: it takes the next free slot of its accounts (see Queue).',
};

export default async function PostPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ done?: string; approve?: string }>;
}) {
  const user = await requireUser();
  const { id } = await params;
  const { done, approve } = await searchParams;
  const ctx = await getContext();
  const post = await foundOr404(getPost(ctx, user.workspaceId, id));
  const [accountList, history, metrics, chain, comments, row] = await Promise.all([
    listAccounts(ctx, user.workspaceId),
    listPostEvents(ctx, user.workspaceId, post.id),
    getPostMetrics(ctx, user.workspaceId, post.id),
    getRecycleChain(ctx, user.workspaceId, post),
    listComments(ctx, post.id),
    ownedPost(ctx, user.workspaceId, post.id),
  ]);
  // The role table (docs/workspaces.md#roles) as the API checks it. "Create and edit drafts,
  // comment": contributors on their own posts only. "Publish now, schedule, queue, delete": editors
  // and up; a contributor's requests (anyone's under approvals "everyone") become submissions.
  const mayChange = can(user.role, 'posts.draft') && (user.role !== 'contributor' || row.userId === user.id);
  const mayPublish = can(user.role, 'posts.publish');
  const permissions = { submitsForApproval: await submissionsNeedApproval(user), mayDelete: mayPublish };
  const accounts = new Map(accountList.map((a) => [a.id, a]));
  const approval = openApprovalRequest(post, history, approve === '1');
  const tz = user.timezone;
  const locale = await requestLocale();
  const failedTargets = post.results.filter((r) => r.status === 'failed');
  const unknownTargets = post.results.filter((r) => r.status === 'unknown');
  let note = done ? doneNotes[done] : undefined;
  // The page follows the post's status live, and the note stays in the address: once a scheduled
  // or queued post went out (or failed), "Scheduled" no longer holds; the badge says what does.
  if ((done === 'schedule' || done === 'queue') && post.status !== 'scheduled') note = undefined;
  if (done && post.status === 'pending_approval')
    note = 'Submitted for approval: an editor, admin or owner decides, and then it goes out as you asked.';
  const requested = post.approval?.requested;
  const requestedText =
    !requested || requested.postingMode === 'now'
      ? 'publish it now'
      : requested.postingMode === 'queue'
        ? 'add it to the queue'
        : `schedule it for ${requested.scheduledAt ? formatDateTime(requested.scheduledAt, user.timezone, locale) : 'later'}`;
  if (done === 'now' && post.status === 'failed') note = undefined;
  // The composer's note stays in the address after later actions here: a post back in drafts (a
  // withdrawn submission, a rejection) was not published or scheduled, whatever `done` says.
  if (done !== 'draft' && post.status === 'draft') note = undefined;

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <p className="small">
            <Link href={`/posts?status=${post.status}`} className="icon-link">
              <Icon name="arrowLeft" size={16} />
              Posts
            </Link>
          </p>
          <div className="row" style={{ marginTop: 6 }}>
            {/* Takes the focus after an approval decision, whose section then goes. */}
            <h1 id="post-title" tabIndex={-1}>
              Post
            </h1>
            <StatusBadge status={post.status} />
          </div>
        </div>
      </div>
      {note && (
        <p className="alert alert-ok" role="status">
          {note}
        </p>
      )}
      {approval && (
        <p className="alert alert-warn" role="status" data-testid="approval-request">
          <strong>{approval.actorName ?? 'An assistant'}</strong> asks you to approve this post:{' '}
          {approval.detail.requestedMode === 'schedule' && typeof approval.detail.scheduledAt === 'string'
            ? `schedule it for ${formatDateTime(approval.detail.scheduledAt, tz, locale)}.`
            : 'publish it now.'}{' '}
          {post.status === 'pending_approval'
            ? 'It waits for a decision below.'
            : permissions.submitsForApproval
              ? 'Review it, then submit it for approval below — or leave it as a draft.'
              : 'Review it, then use Publish or Schedule below — or leave it as a draft.'}
        </p>
      )}
      <ApprovalDecisions fallbackFocusId="post-title">
        {post.status === 'pending_approval' && post.approval && (
          <section className="card stack" aria-labelledby="approval-title" data-testid="approval-state">
            <h2 id="approval-title">Waiting for approval</h2>
            <p>
              {post.approval.requestedBy.name} asked to {requestedText} (submitted{' '}
              {formatDateTime(post.approval.requestedAt, tz, locale)}).
            </p>
            {mayDecide(user, post) ? (
              <ApprovalActions id={post.id} label="this post" />
            ) : (
              <p className="muted small">Another member with the editor role or higher approves it.</p>
            )}
          </section>
        )}
      </ApprovalDecisions>
      {post.status === 'draft' && post.approval?.rejected && (
        <div className="alert alert-warn" role="status" data-testid="approval-rejected">
          <strong>{post.approval.rejected.by.name} sent this post back</strong> (
          {formatDateTime(post.approval.rejected.at, tz, locale)}): {post.approval.rejected.comment}
        </div>
      )}
      {post.status === 'failed' && (
        <p className="alert alert-error" role="alert">
          {failedTargets.length === post.accountIds.length
            ? 'This post could not be published.'
            : `This post was published to ${post.results.filter((r) => r.status === 'posted').length} of ${post.accountIds.length} accounts.`}{' '}
          See each account below; retrying only republishes where it failed.
        </p>
      )}
      {post.status === 'scheduled' && (
        <AccountsAtRisk accounts={post.accountIds.flatMap((id) => accounts.get(id) ?? [])} />
      )}
      {post.risk && (
        <div className="alert alert-warn" role="status" data-testid="post-preflight-risk">
          <strong>This post may fail to publish.</strong> {post.risk.message} {post.risk.hint}
        </div>
      )}
      {unknownTargets.length > 0 && (
        <p className="alert alert-error" role="alert">
          For {unknownTargets.length === 1 ? 'one account' : `${unknownTargets.length} accounts`} we cannot
          tell whether the post arrived: publishing was interrupted.{' '}
          {mayPublish
            ? 'Check the account, then choose “Mark as posted” or “Post again” below.'
            : 'A member with the editor role or higher checks the account and resolves it.'}
        </p>
      )}
      <LiveStatus id={post.id} status={post.status} results={post.results} scheduledAt={post.scheduledAt} />
      <div className="detail-grid">
        <div className="stack">
          <Outgoing post={post} accounts={accountList} timezone={tz} />
          {post.status !== 'posted' && (
            <ReviewLinks
              postId={post.id}
              timezone={tz}
              locale={locale}
              canManage={can(user.role, 'posts.approve')}
            />
          )}
          <TargetResults
            post={post}
            accounts={accounts}
            timezone={tz}
            locale={locale}
            mayResolve={mayPublish}
          />
          <PostComments
            postId={post.id}
            comments={comments}
            canComment={mayChange}
            timezone={tz}
            locale={locale}
          />
          <PostMetricsSection
            postId={post.id}
            metrics={metrics}
            names={new Map(accountList.map((a) => [a.id, accountName(a)]))}
            timezone={tz}
            collectAfterMs={ctx.config.analytics.collectAfterMs}
          />
        </div>
        <aside className="stack" aria-label="Post details">
          <section className="card card-body stack" aria-label="Details">
            <dl className="facts">
              <dt>Created</dt>
              <dd>{formatDateTime(post.createdAt, tz, locale)}</dd>
              {post.scheduledAt && (
                <>
                  <dt>Scheduled</dt>
                  <dd>{formatDateTime(post.scheduledAt, tz, locale)}</dd>
                </>
              )}
              {post.postedAt && (
                <>
                  <dt>Posted</dt>
                  <dd>{formatDateTime(post.postedAt, tz, locale)}</dd>
                </>
              )}
              <dt>Time zone</dt>
              <dd>{tz}</dd>
            </dl>
            {can(user.role, 'workspace.manage') && (
              <SaveAsTemplate
                // Accounts disconnected since the post was made are left out of the template.
                content={{
                  message: post.message,
                  accountIds: post.accountIds.filter((a) => accounts.has(a)),
                  media: post.media,
                  accountOptions: only(post.accountOptions, accounts),
                  overrides: only(post.overrides, accounts),
                  thread: post.thread,
                }}
              />
            )}
          </section>
          {chain && (
            <RecycleChain
              postId={post.id}
              chain={chain}
              accountName={(id) => {
                const account = accounts.get(id);
                return account ? accountName(account) : 'A removed account';
              }}
              timezone={tz}
              locale={locale}
            />
          )}
          <PostTimeline history={history} timezone={tz} locale={locale} />
          {post.status !== 'posted' && mayChange && (
            <section className="card card-body" aria-label="Actions">
              <PostActions
                id={post.id}
                status={post.status}
                scheduledAt={post.scheduledAt}
                timezone={tz}
                hasFailedTargets={failedTargets.length > 0}
                permissions={permissions}
              />
            </section>
          )}
        </aside>
      </div>
    </div>
  );
}

const only = <T,>(byAccount: Record<string, T>, accounts: Map<string, unknown>): Record<string, T> =>
  Object.fromEntries(Object.entries(byAccount).filter(([id]) => accounts.has(id)));
