import { type Dispatch, useId } from 'react';
import { utcToZonedInput } from '#components/lib/time.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import type { ComposerAction, ComposerState, SubmitMode } from './composer-state.ts';

/** Save draft, schedule (with its date picker), add to queue and publish now, with the reason when blocked. */
export function ActionBar({
  state,
  timezone,
  canPublish,
  uploading,
  blockReason,
  dispatch,
  submit,
  needsApproval = false,
}: {
  state: ComposerState;
  timezone: string;
  canPublish: boolean;
  uploading: boolean;
  blockReason: string | undefined;
  dispatch: Dispatch<ComposerAction>;
  submit: (mode: SubmitMode) => void;
  /** Publishing, scheduling and queueing become submissions an approver decides on. */
  needsApproval?: boolean;
}) {
  const { busy, showSchedule, scheduleAt } = state;
  const focusAfterRender = useFocusAfterRender();
  const submitting = busy && busy !== 'draft' && needsApproval ? 'Submitting…' : undefined;
  const reasonId = useId();
  // A draft needs its accounts too (the API refuses one without): Save draft says so where it
  // is, as the reason beside the buttons, instead of letting the request fail. aria-disabled keeps
  // it focusable, so a keyboard or screen reader user reaches it and hears why.
  const draftBlocked = state.selected.length === 0;
  return (
    <div className="action-bar">
      {needsApproval && (
        <span className="muted small" style={{ flexBasis: '100%' }}>
          Your posts go out once an editor, admin or owner approves them.
        </span>
      )}
      {blockReason && (
        <span id={reasonId} className="muted small" style={{ marginRight: 'auto' }}>
          {blockReason}
        </span>
      )}
      <button
        type="button"
        className="btn"
        onClick={() => {
          if (!draftBlocked) submit('draft');
        }}
        disabled={Boolean(busy) || uploading}
        aria-disabled={draftBlocked || undefined}
        aria-describedby={draftBlocked && blockReason ? reasonId : undefined}
      >
        {busy === 'draft' ? 'Saving…' : 'Save draft'}
      </button>
      {showSchedule ? (
        <div className="schedule-box">
          <div className="field">
            <label htmlFor="schedule-at" className="small">
              Date and time ({timezone})
            </label>
            <input
              id="schedule-at"
              type="datetime-local"
              className="input"
              value={scheduleAt}
              min={utcToZonedInput(new Date(), timezone)}
              onChange={(e) => dispatch({ type: 'scheduleAt', value: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="btn"
            onClick={() => submit('schedule')}
            disabled={!canPublish || !scheduleAt}
          >
            {busy === 'schedule'
              ? (submitting ?? 'Scheduling…')
              : needsApproval
                ? 'Submit schedule for approval'
                : 'Schedule'}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="btn"
          onClick={() => {
            dispatch({
              type: 'scheduleOpened',
              defaultAt: utcToZonedInput(new Date(Date.now() + 60 * 60 * 1000), timezone),
            });
            // The date field replaces this button: it takes the focus, which would fall to <body>.
            focusAfterRender('schedule-at');
          }}
        >
          Schedule…
        </button>
      )}
      <button type="button" className="btn" onClick={() => submit('queue')} disabled={!canPublish}>
        {busy === 'queue'
          ? (submitting ?? 'Adding…')
          : needsApproval
            ? 'Submit to queue for approval'
            : 'Add to queue'}
      </button>
      <button type="button" className="btn btn-primary" onClick={() => submit('now')} disabled={!canPublish}>
        {busy === 'now'
          ? (submitting ?? 'Publishing…')
          : needsApproval
            ? 'Submit for approval'
            : 'Publish now'}
      </button>
    </div>
  );
}
