'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { api } from '../lib/api.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';

/**
 * Approve, or reject with a comment, one post waiting for approval (docs/workspaces.md#approvals).
 * Plain buttons and a labelled text area: keyboard and screen-reader usable; the outcome is
 * announced in a live region.
 */
export function ApprovalActions({ id, label }: { id: string; label: string }) {
  const router = useRouter();
  const commentId = useId();
  const { busy, error, setError, run } = useBusyAction<'approve' | 'reject'>();
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const [done, setDone] = useState<string>();

  const decide = (kind: 'approve' | 'reject', body: Record<string, unknown>) =>
    run(kind, async () => {
      await api('POST', `/api/v1/posts/${id}/${kind}`, body);
      setDone(kind === 'approve' ? 'Approved.' : 'Sent back to the author.');
      setRejecting(false);
      router.refresh();
    });

  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
        <button
          type="button"
          className="btn btn-primary"
          disabled={Boolean(busy)}
          aria-label={`Approve ${label}`}
          onClick={() => decide('approve', {})}
        >
          {busy === 'approve' ? 'Approving…' : 'Approve'}
        </button>
        {!rejecting && (
          <button
            type="button"
            className="btn"
            disabled={Boolean(busy)}
            aria-label={`Reject ${label}`}
            onClick={() => setRejecting(true)}
          >
            Reject…
          </button>
        )}
      </div>
      {rejecting && (
        <form
          className="stack"
          style={{ gap: 8 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (!comment.trim()) return setError('Write what the author should change.');
            void decide('reject', { comment });
          }}
        >
          <div className="field">
            <label htmlFor={commentId}>What should change? (sent to the author)</label>
            <textarea
              id={commentId}
              className="input"
              rows={3}
              maxLength={5000}
              required
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
          </div>
          <div className="row" style={{ gap: 8 }}>
            <button type="submit" className="btn btn-danger" disabled={Boolean(busy)}>
              {busy === 'reject' ? 'Sending back…' : 'Send back to draft'}
            </button>
            <button type="button" className="btn" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {done ?? ''}
      </p>
    </div>
  );
}
