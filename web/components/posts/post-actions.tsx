'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { api, isPastTime } from '../lib/api.ts';
import { formatSpoken, utcToZonedInput, zonedToUtc } from '../lib/time.ts';
import { useTimeSettings } from '../lib/time-context.tsx';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

/**
 * What the viewer's role allows on the post (docs/workspaces.md#roles), decided by the page on the
 * server with the rules the API applies: the page offers nothing the server would refuse.
 */
export interface PostPermissions {
  /** Their publish, schedule and queue requests are submissions for approval (a contributor's always). */
  submitsForApproval: boolean;
  /** Deleting is the publishers' (`posts.publish`: editors and up). */
  mayDelete: boolean;
}

/**
 * The actions a post's status and the viewer's role allow: edit, reschedule, publish now or submit
 * for approval, retry, move to drafts (withdraw a submission), delete. Shown only to those who may
 * change the post. A post waiting for approval goes out only through a decision (the approval
 * card), so it offers no publish or schedule here, to anyone.
 */
export function PostActions({
  id,
  status,
  scheduledAt,
  timezone,
  hasFailedTargets,
  permissions,
}: {
  id: string;
  status: string;
  scheduledAt: string | null;
  timezone: string;
  hasFailedTargets: boolean;
  permissions: PostPermissions;
}) {
  const router = useRouter();
  const { locale } = useTimeSettings();
  const { busy, error, setError, run } = useBusyAction();
  const [rescheduling, setRescheduling] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  // What the last action did, said in a status the focus moves to: the button pressed is
  // disabled or gone once the page refreshes, and the focus must not fall to the page's body.
  const [outcome, setOutcome] = useState('');
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const focusNext = useRef<'outcome' | 'error'>(undefined);
  useEffect(() => {
    if (busy || !focusNext.current) return;
    const target = focusNext.current === 'error' ? errorRef.current : outcomeRef.current;
    if (!target) return;
    focusNext.current = undefined;
    target.focus();
  });
  const [when, setWhen] = useState(() =>
    utcToZonedInput(
      scheduledAt && new Date(scheduledAt) > new Date()
        ? new Date(scheduledAt)
        : new Date(Date.now() + 3600_000),
      timezone,
    ),
  );

  // A posted post has no actions; the outcome of the one that posted it stays (with the focus).
  const posted = status === 'posted';
  if (posted && !outcome) return null;
  const pending = status === 'pending_approval';
  const { submitsForApproval: submits, mayDelete } = permissions;

  // Cancel, or Escape in the form: the form goes and the button that opened it takes the focus.
  const closeReschedule = () => {
    setRescheduling(false);
    focusNext.current = undefined;
    focusAfterRender('reschedule-open');
  };

  const act = (name: string, body: Record<string, unknown>) => {
    setOutcome('');
    focusNext.current = 'error';
    return run(name, async () => {
      let result: { status?: string; scheduledAt?: string | null } | undefined;
      try {
        result = await api('POST', `/api/v1/posts/${id}`, body);
      } catch (e) {
        if (isPastTime(e)) throw new Error('That time has passed. Pick a time in the future.');
        throw e;
      }
      setRescheduling(false);
      setOutcome(outcomeOf(name, result, retrying));
      focusNext.current = 'outcome';
      router.refresh();
    });
  };
  const retrying = status === 'failed' && hasFailedTargets;
  const outcomeOf = (
    name: string,
    result: { status?: string; scheduledAt?: string | null } | undefined,
    retry: boolean,
  ): string => {
    if (name === 'draft') return pending ? 'Withdrawn: it is a draft again.' : 'Moved to drafts.';
    // 202: stored as a submission, nothing published or scheduled yet (docs/workspaces.md#approvals).
    if (result?.status === 'pending_approval') {
      const time = name === 'schedule' && result.scheduledAt;
      return `Sent for approval: an editor, admin or owner decides, then it ${time ? `is scheduled for ${formatSpoken(new Date(time), timezone, locale)}` : retry ? 'is retried' : 'is published'}.`;
    }
    if (name === 'schedule')
      return result?.scheduledAt
        ? `Scheduled for ${formatSpoken(new Date(result.scheduledAt), timezone, locale)}.`
        : 'Scheduled.';
    const what = retry ? 'Retry' : 'Publishing';
    if (result?.status === 'posted') return `${what}: posted to every account.`;
    if (result?.status === 'failed') return `${what}: some accounts failed again; see each account below.`;
    return `${what} started; this page shows each account's result as it arrives.`;
  };

  return (
    <div className="stack" style={{ gap: 10 }}>
      {!posted && (
        <div className="stack" style={{ gap: 8 }}>
          {!pending && (
            <button
              type="button"
              className="btn btn-primary btn-block"
              // aria-disabled while busy, not disabled (which drops the focus to <body>): a
              // second press while the first is sent does nothing.
              aria-disabled={Boolean(busy) || undefined}
              onClick={() => {
                if (!busy) act('now', { postingMode: 'now' });
              }}
            >
              {busy === 'now'
                ? submits
                  ? 'Submitting…'
                  : 'Publishing…'
                : submits
                  ? retrying
                    ? 'Submit retry for approval'
                    : 'Submit for approval'
                  : retrying
                    ? 'Retry failed accounts'
                    : 'Publish now'}
            </button>
          )}
          <Link href={`/posts/${id}/edit`} className="btn btn-block">
            Edit
          </Link>
          {pending ? null : rescheduling ? (
            <form
              className="stack"
              style={{ gap: 8 }}
              onSubmit={(e) => {
                e.preventDefault();
                // Its button is aria-disabled while busy, not disabled (which drops the focus to
                // <body>): a second press while the first is sent does nothing.
                if (busy) return;
                const at = zonedToUtc(when, timezone);
                if (!at || at.getTime() < Date.now()) {
                  setError('Pick a time in the future.');
                  focusNext.current = 'error';
                  return;
                }
                act('schedule', { postingMode: 'schedule', scheduledAt: at.toISOString() });
              }}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  closeReschedule();
                }
              }}
            >
              <div className="field">
                <label htmlFor="reschedule-at" className="small">
                  New time ({timezone})
                </label>
                <input
                  id="reschedule-at"
                  type="datetime-local"
                  className="input"
                  value={when}
                  onChange={(e) => setWhen(e.target.value)}
                />
              </div>
              <div className="row">
                <button
                  type="submit"
                  className="btn btn-primary btn-sm"
                  aria-disabled={Boolean(busy) || undefined}
                >
                  {submits
                    ? 'Submit schedule for approval'
                    : status === 'scheduled'
                      ? 'Reschedule'
                      : 'Schedule'}
                </button>
                <button type="button" className="btn btn-sm" onClick={closeReschedule}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <button
              type="button"
              id="reschedule-open"
              className="btn btn-block"
              onClick={() => {
                setRescheduling(true);
                // The form replaces this button: its time field takes the focus.
                focusAfterRender('reschedule-at');
              }}
            >
              {submits ? 'Schedule for approval…' : status === 'scheduled' ? 'Reschedule' : 'Schedule'}
            </button>
          )}
          {(status === 'scheduled' || pending) && (
            <button
              type="button"
              className="btn btn-block"
              aria-disabled={Boolean(busy) || undefined}
              onClick={() => {
                if (!busy) act('draft', { postingMode: 'draft' });
              }}
            >
              {pending ? 'Withdraw to drafts' : 'Move to drafts'}
            </button>
          )}
          {mayDelete && (
            <ConfirmButton
              label="Delete post"
              className="btn btn-block btn-ghost"
              title="Delete this post?"
              body="It will be removed for good. Nothing already published is deleted from the platforms."
              confirmLabel="Delete"
              onConfirm={async () => {
                await api('DELETE', `/api/v1/posts/${id}`);
                router.push(`/posts?status=${status}`);
                router.refresh();
              }}
            />
          )}
        </div>
      )}
      {error && (
        <p className="alert alert-error" role="alert" ref={errorRef} tabIndex={-1}>
          {error}
        </p>
      )}
      <p className={outcome ? 'alert alert-ok' : 'sr-only'} role="status" ref={outcomeRef} tabIndex={-1}>
        {outcome}
      </p>
    </div>
  );
}
