import { AccountAvatar } from '#components/account-avatar.tsx';
import { Icon } from '#components/icons.tsx';
import { accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import type { AccountView } from '#server/accounts/schema.ts';
import type { PostView } from '#server/posts/schema.ts';
import { StagingNote } from './staging-note.tsx';
import { plainError, StatusBadge } from './status.tsx';
import { TargetLinks } from './target-links.tsx';
import { resultParts, ThreadParts } from './thread-parts.tsx';
import { UnknownTargetActions } from './unknown-actions.tsx';
import { UnknownResolutions } from './unknown-resolutions.tsx';

/**
 * The post page's Accounts card: each account the post is for (or reached), with its outcome,
 * link, thread parts, short links, error and staging, and for an unknown outcome the actions that
 * resolve it (`mayResolve`: editors and up).
 */
export function TargetResults({
  post,
  accounts,
  timezone,
  locale,
  mayResolve,
}: {
  post: PostView;
  accounts: Map<string, AccountView>;
  timezone: string;
  locale?: string;
  mayResolve: boolean;
}) {
  return (
    <section className="card" aria-labelledby="results-title">
      <div className="card-head">
        <h2 id="results-title">Accounts</h2>
      </div>
      <UnknownResolutions>
        <ul className="list">
          {post.accountIds
            .concat(post.results.map((r) => r.accountId).filter((a) => !post.accountIds.includes(a)))
            .map((accountId) => {
              const account = accounts.get(accountId);
              const result = post.results.find((r) => r.accountId === accountId);
              const error = result?.error ? plainError(result.error) : undefined;
              const parts = resultParts(result);
              return (
                // Focusable by script only: the row takes the focus once its unknown outcome is resolved.
                <li
                  key={accountId}
                  className="result"
                  data-testid="result"
                  data-result-account={accountId}
                  tabIndex={-1}
                >
                  {account ? (
                    <AccountAvatar account={account} />
                  ) : (
                    <span className="avatar">
                      <span className="avatar-fallback">?</span>
                    </span>
                  )}
                  <div className="meta">
                    <strong>{account ? accountName(account) : 'Disconnected account'}</strong>
                    <p className="muted small">
                      {account
                        ? `${platformName(account.platform)} · ${accountHandle(account)}`
                        : result?.platform}
                    </p>
                    {result?.status === 'posted' && result.url && (
                      <p className="small">
                        <a href={result.url} target="_blank" rel="noreferrer">
                          View on {platformName(result.platform)}{' '}
                          <Icon name="external" size={14} label="(opens in a new tab)" />
                        </a>
                      </p>
                    )}
                    {parts.length > 0 && result && (
                      <ThreadParts parts={parts} platformName={platformName(result.platform)} />
                    )}
                    {result && <TargetLinks links={result.links} warnings={result.warnings} />}
                    {error && (
                      <div className="small" style={{ marginTop: 4 }}>
                        <p style={{ color: 'var(--danger)' }}>{error.summary}</p>
                        <p className="muted">{error.detail}</p>
                      </div>
                    )}
                    <StagingNote
                      staging={post.staging.find((s) => s.accountId === accountId)}
                      postStatus={post.status}
                      timezone={timezone}
                      locale={locale}
                    />
                    {result?.status === 'unknown' && mayResolve && (
                      <UnknownTargetActions
                        postId={post.id}
                        accountId={accountId}
                        accountLabel={account ? accountName(account) : accountId}
                      />
                    )}
                  </div>
                  <StatusBadge status={result?.status ?? targetStatus(post.status)} />
                </li>
              );
            })}
        </ul>
      </UnknownResolutions>
    </section>
  );
}

/** An account the post has not reached yet waits with the post: scheduled, for approval, or as a draft. */
const targetStatus = (postStatus: string): string =>
  postStatus === 'scheduled' || postStatus === 'pending_approval' ? postStatus : 'draft';
