import { type Dispatch, useId } from 'react';
import { ActionButton } from '#components/action-button.tsx';
import { utcToZonedInput } from '#components/lib/time.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import type { ComposerAction, ComposerState, SubmitMode } from './composer-state.ts';

/**
 * Save draft, schedule (with its date picker), add to queue and publish now, with the reason when
 * blocked. Each is an `ActionButton`: while blocked (invalid post, busy, uploads running) it stays
 * focusable with `aria-disabled`, described by the reason shown beside the buttons.
 */
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
  // is, as the reason beside the buttons, instead of letting the request fail.
  const draftBlocked = state.selected.length === 0;
  /** The reason beside the buttons, when there is one: what a blocked button is described by. */
  const reason = blockReason ? reasonId : undefined;
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
      <ActionButton
        blocked={draftBlocked || Boolean(busy) || uploading}
        reasonId={draftBlocked ? reason : undefined}
        onPress={() => submit('draft')}
      >
        {busy === 'draft' ? 'Saving…' : 'Save draft'}
      </ActionButton>
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
          <ActionButton
            blocked={!canPublish || !scheduleAt}
            reasonId={reason}
            onPress={() => submit('schedule')}
          >
            {busy === 'schedule'
              ? (submitting ?? 'Scheduling…')
              : needsApproval
                ? 'Submit schedule for approval'
                : 'Schedule'}
          </ActionButton>
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
      <ActionButton blocked={!canPublish} reasonId={reason} onPress={() => submit('queue')}>
        {busy === 'queue'
          ? (submitting ?? 'Adding…')
          : needsApproval
            ? 'Submit to queue for approval'
            : 'Add to queue'}
      </ActionButton>
      <ActionButton blocked={!canPublish} reasonId={reason} onPress={() => submit('now')} primary>
        {busy === 'now'
          ? (submitting ?? 'Publishing…')
          : needsApproval
            ? 'Submit for approval'
            : 'Publish now'}
      </ActionButton>
    </div>
  );
}
