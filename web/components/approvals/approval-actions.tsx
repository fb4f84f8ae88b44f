'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { ApiError, api } from '../lib/api.ts';
import { utcToZonedInput, zonedToUtc } from '../lib/time.ts';
import { useTimeSettings } from '../lib/time-context.tsx';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { useDecided } from './approval-decisions.tsx';

/**
 * Approve, or reject with a comment, one post waiting for approval (docs/workspaces.md#approvals).
 * Plain buttons and a labelled text area: keyboard and screen-reader usable. The outcome is
 * announced by the page's `ApprovalDecisions`, whose live region outlives this item (the refresh
 * after a decision removes it), and which then moves the focus on. Buttons are `aria-disabled`
 * while busy, not `disabled`, so the one pressed keeps the focus until then. A requested time that
 * passed while the post waited (409 `scheduled_time_passed`) opens a field for a new one.
 */
export function ApprovalActions({ id, label }: { id: string; label: string }) {
  const router = useRouter();
  const decided = useDecided();
  const commentId = useId();
  const rejectId = useId();
  const newTimeId = useId();
  const { timeZone } = useTimeSettings();
  // Set when the requested time has passed: approving then needs a new one.
  const [newTime, setNewTime] = useState<string>();
  const [newTimeError, setNewTimeError] = useState<string>();
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
      try {
        await api('POST', `/api/v1/posts/${id}/${kind}`, body);
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'scheduled_time_passed')) throw error;
        setNewTime(utcToZonedInput(new Date(Date.now() + 3600_000), timeZone));
        setNewTimeError(undefined);
        focusAfterRender(newTimeId);
        return;
      }
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
      {newTime !== undefined && !rejecting && (
        <form
          className="stack"
          style={{ gap: 8 }}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (working) return;
            const at = zonedToUtc(newTime, timeZone);
            if (!at || at.getTime() <= Date.now()) {
              setNewTimeError('Pick a time in the future.');
              focusAfterRender(newTimeId);
              return;
            }
            setNewTimeError(undefined);
            void decide('approve', { scheduledAt: at.toISOString() });
          }}
        >
          <p id={`${newTimeId}-hint`} className="small" role="status">
            The requested time has passed. Pick a new time to approve it for.
          </p>
          <div className="field">
            <label htmlFor={newTimeId}>New time ({timeZone})</label>
            <input
              id={newTimeId}
              type="datetime-local"
              className="input"
              value={newTime}
              onChange={(e) => setNewTime(e.target.value)}
              {...invalidProps(`${newTimeId}-error`, newTimeError, `${newTimeId}-hint`)}
            />
            <FieldError id={`${newTimeId}-error`}>{newTimeError}</FieldError>
          </div>
          <div className="row">
            <button type="submit" className="btn btn-primary" aria-disabled={working}>
              {busy === 'approve' ? 'Approving…' : 'Approve for this time'}
            </button>
          </div>
        </form>
      )}
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
