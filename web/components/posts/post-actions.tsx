'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { api } from '../lib/api.ts';
import { utcToZonedInput, zonedToUtc } from '../lib/time.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';

/** The actions a post's status allows: edit, reschedule, publish now, retry, delete. */
export function PostActions({
  id,
  status,
  scheduledAt,
  timezone,
  hasFailedTargets,
}: {
  id: string;
  status: string;
  scheduledAt: string | null;
  timezone: string;
  hasFailedTargets: boolean;
}) {
  const router = useRouter();
  const { busy, error, setError, run } = useBusyAction();
  const [rescheduling, setRescheduling] = useState(false);
  const [when, setWhen] = useState(() =>
    utcToZonedInput(
      scheduledAt && new Date(scheduledAt) > new Date()
        ? new Date(scheduledAt)
        : new Date(Date.now() + 3600_000),
      timezone,
    ),
  );

  if (status === 'posted') return null;

  const act = (name: string, body: Record<string, unknown>) =>
    run(name, async () => {
      await api('POST', `/api/v1/posts/${id}`, body);
      setRescheduling(false);
      router.refresh();
    });

  return (
    <div className="stack" style={{ gap: 10 }}>
      <div className="stack" style={{ gap: 8 }}>
        <button
          type="button"
          className="btn btn-primary btn-block"
          disabled={Boolean(busy)}
          onClick={() => act('now', { postingMode: 'now' })}
        >
          {busy === 'now'
            ? 'Publishing…'
            : status === 'failed' && hasFailedTargets
              ? 'Retry failed accounts'
              : 'Publish now'}
        </button>
        <Link href={`/posts/${id}/edit`} className="btn btn-block">
          Edit
        </Link>
        {rescheduling ? (
          <form
            className="stack"
            style={{ gap: 8 }}
            onSubmit={(e) => {
              e.preventDefault();
              const at = zonedToUtc(when, timezone);
              if (!at || at.getTime() < Date.now()) {
                setError('Pick a time in the future.');
                return;
              }
              act('schedule', { postingMode: 'schedule', scheduledAt: at.toISOString() });
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
              <button type="submit" className="btn btn-primary btn-sm" disabled={Boolean(busy)}>
                {status === 'scheduled' ? 'Reschedule' : 'Schedule'}
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setRescheduling(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <button type="button" className="btn btn-block" onClick={() => setRescheduling(true)}>
            {status === 'scheduled' ? 'Reschedule' : 'Schedule'}
          </button>
        )}
        {status === 'scheduled' && (
          <button
            type="button"
            className="btn btn-block"
            disabled={Boolean(busy)}
            onClick={() => act('draft', { postingMode: 'draft' })}
          >
            Move to drafts
          </button>
        )}
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
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
