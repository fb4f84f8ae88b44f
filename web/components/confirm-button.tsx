'use client';

import { type ReactNode, useRef, useState } from 'react';
import { describeError } from './lib/api.ts';

/**
 * A button that asks for confirmation in a modal dialog before running a destructive action.
 * An error `onConfirm` throws (an API error too) is shown in the dialog, described for the user.
 */
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
  className = 'btn btn-sm',
  danger = true,
  accessibleName,
}: {
  label: ReactNode;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  className?: string;
  danger?: boolean;
  /** The button's name when its label is the same on several rows ("Post again to …"). */
  accessibleName?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const titleId = `confirm-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={accessibleName}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      {/* Named by its question, described by what follows from it: both are read as it opens. */}
      {/* While the action runs, Escape does not close it: its outcome (or error) is shown here. */}
      <dialog
        ref={dialog}
        className="modal"
        aria-labelledby={titleId}
        aria-describedby={`${titleId}-body`}
        aria-busy={busy}
        onKeyDown={(event) => {
          if (busy && event.key === 'Escape') event.preventDefault();
        }}
        onCancel={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        <div className="modal-body">
          <h2 id={titleId}>{title}</h2>
          <div className="muted" id={`${titleId}-body`}>
            {body}
          </div>
          {error && (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            {/* aria-disabled, not disabled: the pressed button keeps the focus while it works. */}
            <button
              type="button"
              className="btn"
              onClick={() => !busy && dialog.current?.close()}
              aria-disabled={busy}
            >
              Cancel
            </button>
            <button
              type="button"
              className={danger ? 'btn btn-danger' : 'btn btn-primary'}
              aria-disabled={busy}
              onClick={async () => {
                if (busy) return;
                setBusy(true);
                try {
                  await onConfirm();
                  dialog.current?.close();
                } catch (e) {
                  setError(describeError(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {busy ? 'Working…' : confirmLabel}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
