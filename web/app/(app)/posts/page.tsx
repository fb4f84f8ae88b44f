import { ProblemError } from '@postwave/shared';
import type { Metadata } from 'next';
import Link from 'next/link';
import { PlatformMark } from '../../../components/account-avatar.tsx';
import { healthCopy, isBadHealth } from '../../../components/accounts/health.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Icon } from '../../../components/icons.tsx';
import { formatDateTime } from '../../../components/lib/time.ts';
import { StatusBadge } from '../../../components/posts/status.tsx';
import { listAccounts } from '../../../server/accounts/list-accounts.ts';
import { getContext } from '../../../server/context.ts';
import { type PostStatus, postStatuses } from '../../../server/db/schema.ts';
import { listPosts } from '../../../server/posts/list-posts.ts';
import { requestLocale } from '../../../server/ui/locale.ts';
import { requireUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Posts' };

interface Tab {
  label: string;
  title: string;
  empty: string;
}

/**
 * One tab per post status, in the order shown: typed by every status, so a status the posts can
 * have never lacks its tab (a post waiting for approval once had none, and its link answered 500).
 */
const tabs: Record<PostStatus, Tab> = {
  scheduled: {
    label: 'Scheduled',
    title: 'No scheduled posts',
    empty: 'Nothing is scheduled. Schedule a post from the composer and it will wait here.',
  },
  pending_approval: {
    label: 'Waiting for approval',
    title: 'Nothing waiting for approval',
    empty:
      'No post is waiting for approval. Posts submitted for approval wait here until an editor, admin or owner decides.',
  },
  draft: {
    label: 'Drafts',
    title: 'No drafts',
    empty: 'No drafts. Save a post as a draft to finish it later.',
  },
  posted: { label: 'Posted', title: 'Nothing posted yet', empty: 'Nothing published yet.' },
  failed: {
    label: 'Failed',
    title: 'No failed posts',
    empty: 'No failed posts. Posts that could not be published to every account show up here.',
  },
};
const tabOrder = Object.keys(tabs) as PostStatus[];

/** The tab a `status` query asks for; anything else (an old or edited link) shows the first. */
function tabFor(status: string | string[] | undefined): PostStatus {
  return typeof status === 'string' && (postStatuses as readonly string[]).includes(status)
    ? (status as PostStatus)
    : tabOrder[0]!;
}

export default async function PostsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string | string[]; cursor?: string }>;
}) {
  const user = await requireUser();
  const locale = await requestLocale();
  const params = await searchParams;
  const status = tabFor(params.status);
  const ctx = await getContext();
  // A cursor that does not decode (an edited or stale link) shows the first page; any other
  // failure (the database is down) reaches the error boundary rather than an empty list.
  const page = await listPosts(ctx, user.workspaceId, { status, limit: 30, cursor: params.cursor }).catch(
    (error) => {
      if (params.cursor && error instanceof ProblemError && error.problem.code === 'invalid_request')
        return listPosts(ctx, user.workspaceId, { status, limit: 30 });
      throw error;
    },
  );
  const accounts = new Map((await listAccounts(ctx, user.workspaceId)).map((a) => [a.id, a]));
  const tab = tabs[status];
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Posts</h1>
          <p>Everything you have written, by where it stands.</p>
        </div>
        <div className="row">
          <Link href="/posts/import" className="btn">
            Import / export
          </Link>
          <Link href="/compose" className="btn btn-primary">
            New post
          </Link>
        </div>
      </div>
      <nav className="tabs" aria-label="Post status">
        {tabOrder.map((s) => (
          <Link key={s} href={`/posts?status=${s}`} aria-current={s === status ? 'page' : undefined}>
            {tabs[s].label}
          </Link>
        ))}
      </nav>
      <section className="card" aria-label={`${tab.label} posts`}>
        {page.posts.length === 0 ? (
          <EmptyState
            icon="list"
            title={tab.title}
            action={
              <Link href="/compose" className="btn">
                Write a post
              </Link>
            }
          >
            {tab.empty}
          </EmptyState>
        ) : (
          <ul className="list">
            {page.posts.map((post) => {
              const submission = post.status === 'pending_approval' ? post.approval : null;
              const when =
                post.status === 'posted' && post.postedAt
                  ? `Posted ${formatDateTime(post.postedAt, user.timezone, locale)}`
                  : submission
                    ? `Submitted ${formatDateTime(submission.requestedAt, user.timezone, locale)}`
                    : post.scheduledAt
                      ? `${plannedWords(post.status, post.scheduledAt)} ${formatDateTime(post.scheduledAt, user.timezone, locale)}`
                      : `Edited ${formatDateTime(post.updatedAt, user.timezone, locale)}`;
              const platforms = [
                ...new Set(post.accountIds.map((id) => accounts.get(id)?.platform).filter(Boolean)),
              ] as string[];
              // A post still to go out to an unhealthy account is flagged before its time.
              const atRisk =
                post.status === 'scheduled'
                  ? post.accountIds.flatMap((id) => {
                      const a = accounts.get(id);
                      return a && isBadHealth(a.health) ? [a] : [];
                    })
                  : [];
              return (
                <li key={post.id}>
                  <Link href={`/posts/${post.id}`} className="post-row" data-testid="post-row">
                    <div>
                      <p className="excerpt">
                        {post.message.trim() || <em className="muted">Media only</em>}
                      </p>
                      <div className="post-meta">
                        <span className="avatar-stack">
                          {platforms.map((p) => (
                            <PlatformMark key={p} platform={p} />
                          ))}
                        </span>
                        <span>
                          {post.accountIds.length} account{post.accountIds.length === 1 ? '' : 's'}
                        </span>
                        {post.media.length > 0 && <span>· {post.media.length} media</span>}
                        <span>· {when}</span>
                      </div>
                      {post.risk && (
                        <p className="post-risk small" data-testid="post-preflight-risk">
                          <Icon name="warning" size={14} />
                          {`Pre-flight check: ${post.risk.message} ${post.risk.hint}`}
                        </p>
                      )}
                      {!post.risk && atRisk.length > 0 && (
                        <p className="post-risk small" data-testid="post-at-risk">
                          <Icon name="warning" size={14} />
                          {atRisk.length === 1
                            ? `An account ${healthCopy[atRisk[0]!.health].label.toLowerCase()}: it may fail to publish there`
                            : `${atRisk.length} accounts need attention: it may fail to publish there`}
                        </p>
                      )}
                    </div>
                    <StatusBadge status={post.status} />
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {page.nextCursor && (
        <div className="row" style={{ justifyContent: 'center' }}>
          <Link
            className="btn"
            href={`/posts?status=${status}&cursor=${encodeURIComponent(page.nextCursor)}`}
          >
            Older posts
          </Link>
        </div>
      )}
    </div>
  );
}

/**
 * How the list names a post's time: a scheduled post is scheduled for it; any other (a draft, one
 * sent back or waiting for approval, a failed one) was due only once that time has passed, and is
 * planned for a time still ahead.
 */
function plannedWords(status: string, scheduledAt: string): string {
  if (status === 'scheduled') return 'Scheduled for';
  return Date.parse(scheduledAt) > Date.now() ? 'Planned for' : 'Was due';
}
