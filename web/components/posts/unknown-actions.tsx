'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { api } from '../lib/api.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { useResolved } from './unknown-resolutions.tsx';

type Resolution = 'mark_posted' | 'post_again';

/** The post as the resolve request answers it: "Post again" has published by then. */
interface ResolvedPost {
  results?: { accountId: string; status: string }[];
}

/**
 * For a target whose outcome is unknown (a send interrupted on a platform that cannot be checked):
 * the person checks the account and says what happened. Both go through `POST /api/v1/posts/{id}`
 * `{ resolveUnknown, accountIds }`. "Mark as posted" is `aria-disabled` while busy, not `disabled`,
 * so it keeps the focus; the refresh after either removes these actions, and the page's
 * `UnknownResolutions` announces the outcome and moves the focus to the account's row.
 */
export function UnknownTargetActions({
  postId,
  accountId,
  accountLabel,
}: {
  postId: string;
  accountId: string;
  accountLabel: string;
}) {
  const router = useRouter();
  const resolved = useResolved();
  const { busy, error, run } = useBusyAction<Resolution>();
  // Set once resolved: the actions stay until the refreshed page drops them, and must not resolve twice.
  const [done, setDone] = useState(false);
  const working = Boolean(busy) || done;
  const resolve = (resolution: Resolution) =>
    run(resolution, async () => {
      const post = await api<ResolvedPost>('POST', `/api/v1/posts/${postId}`, {
        resolveUnknown: resolution,
        accountIds: [accountId],
      });
      setDone(true);
      resolved?.(accountId, outcomeOf(resolution, post, accountId, accountLabel));
      router.refresh();
    });
  return (
    <div className="stack" style={{ gap: 6, marginTop: 6 }} data-unknown-actions>
      <div className="row" style={{ gap: 6 }}>
        <button
          type="button"
          className="btn btn-sm"
          aria-disabled={working || undefined}
          aria-label={`Mark as posted on ${accountLabel}`}
          onClick={() => {
            if (!working) resolve('mark_posted');
          }}
        >
          {busy === 'mark_posted' ? 'Saving…' : 'Mark as posted'}
        </button>
        <ConfirmButton
          label="Post again"
          accessibleName={`Post again to ${accountLabel}`}
          title={`Post again to ${accountLabel}?`}
          body="If the interrupted send did arrive, the post will appear twice. Check the account first."
          confirmLabel="Post again"
          danger={false}
          onConfirm={() => (working ? Promise.resolve() : resolve('post_again'))}
        />
      </div>
      {error && (
        <p className="small" role="alert" style={{ color: 'var(--danger)' }}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What a resolution did, in words: "Post again" has published (or failed) by the time it answers. */
function outcomeOf(resolution: Resolution, post: ResolvedPost, accountId: string, label: string): string {
  if (resolution === 'mark_posted') return `Marked as posted on ${label}.`;
  const status = post.results?.find((r) => r.accountId === accountId)?.status;
  if (status === 'posted') return `Posted again to ${label}.`;
  if (status === 'failed') return `Posting again to ${label} failed: see the account's error.`;
  return `Posting again to ${label}.`;
}
