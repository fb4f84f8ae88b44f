'use client';

import { useRouter } from 'next/navigation';
import { ConfirmButton } from '../confirm-button.tsx';
import { api } from '../lib/api.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';

/**
 * For a target whose outcome is unknown (a send interrupted on a platform that cannot be checked):
 * the person checks the account and says what happened. Both go through `POST /api/v1/posts/{id}`
 * `{ resolveUnknown, accountIds }`.
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
  const { busy, error, run } = useBusyAction();
  const resolve = (resolution: 'mark_posted' | 'post_again') =>
    run(resolution, async () => {
      await api('POST', `/api/v1/posts/${postId}`, { resolveUnknown: resolution, accountIds: [accountId] });
      router.refresh();
    });
  return (
    <div className="stack" style={{ gap: 6, marginTop: 6 }}>
      <div className="row" style={{ gap: 6 }}>
        <button
          type="button"
          className="btn btn-sm"
          disabled={Boolean(busy)}
          aria-label={`Mark as posted on ${accountLabel}`}
          onClick={() => resolve('mark_posted')}
        >
          {busy === 'mark_posted' ? 'Saving…' : 'Mark as posted'}
        </button>
        <ConfirmButton
          label="Post again"
          title={`Post again to ${accountLabel}?`}
          body="If the interrupted send did arrive, the post will appear twice. Check the account first."
          confirmLabel="Post again"
          danger={false}
          onConfirm={() => resolve('post_again')}
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
