'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api } from '../lib/api.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { useDecided } from './approval-decisions.tsx';

/**
 * Approve, or reject with a comment, one post waiting for approval (docs/workspaces.md#approvals).
 * Plain buttons and a labelled text area: keyboard and screen-reader usable. The outcome is
 * announced by the page's `ApprovalDecisions`, whose live region outlives this item (the refresh
 * after a decision removes it), and which then moves the focus on. Buttons are `aria-disabled`
 * while busy, not `disabled`, so the one pressed keeps the focus until then.
 */
export function ApprovalActions({ id, label }: { id: string; label: string }) {
  const router = useRouter();
  const decided = useDecided();
  const commentId = useId();
  const rejectId = useId();
  const focusAfterRender = useFocusAfterRender();
  const { busy, error, setError, run } = useBusyAction<'approve' | 'reject'>();
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  // Set once decided: the item stays until the refreshed page drops it, and must not be decided twice.
  const [done, setDone] = useState(false);
  const working = Boolean(busy) || done;
  const [commentError, setCommentError] = useState<string>();

  const decide = (kind: 'approve' | 'reject', body: Record<string, unknown>) => {
    if (working) return;
    return run(kind, async () => {
      await api('POST', `/api/v1/posts/${id}/${kind}`, body);
      setDone(true);
      decided?.(id, kind === 'approve' ? `Approved ${label}.` : `Sent ${label} back to the author.`);
      router.refresh();
    });
  };

  const closeReject = () => {
    setRejecting(false);
    setError(undefined);
    setCommentError(undefined);
    focusAfterRender(rejectId);
  };

  return (
    <div className="stack" style={{ gap: 8 }} data-approval-item={id}>
      <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
        <button
          type="button"
          className="btn btn-primary"
          aria-disabled={working}
          aria-label={`Approve ${label}`}
          onClick={() => decide('approve', {})}
        >
          {busy === 'approve' ? 'Approving…' : 'Approve'}
        </button>
        {!rejecting && (
          <button
            type="button"
            id={rejectId}
            className="btn"
            aria-disabled={working}
            aria-label={`Reject ${label}`}
            onClick={() => {
              if (working) return;
              setRejecting(true);
              // The form replaces this button: its comment box takes the focus.
              focusAfterRender(commentId);
            }}
          >
            Reject…
          </button>
        )}
      </div>
      {rejecting && (
        <form
          className="stack"
          style={{ gap: 8 }}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!comment.trim()) {
              setCommentError('Write what the author should change.');
              focusAfterRender(commentId);
              return;
            }
            setCommentError(undefined);
            void decide('reject', { comment });
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !working) {
              e.preventDefault();
              closeReject();
            }
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
              {...invalidProps(`${commentId}-error`, commentError)}
            />
            <FieldError id={`${commentId}-error`}>{commentError}</FieldError>
          </div>
          <div className="row" style={{ gap: 8 }}>
            <button type="submit" className="btn btn-danger" aria-disabled={working}>
              {busy === 'reject' ? 'Sending back…' : 'Send back to draft'}
            </button>
            <button
              type="button"
              className="btn"
              aria-disabled={working}
              onClick={() => !working && closeReject()}
            >
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
    </div>
  );
}
