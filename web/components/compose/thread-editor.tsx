import { type Dispatch, useEffect, useId, useRef } from 'react';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import type { TargetCount } from './composer-selectors.ts';
import {
  type ComposerAction,
  type MediaItem,
  type MediaSlot,
  maxThreadParts,
  type ThreadPart,
} from './composer-state.ts';
import { Counters } from './counters.tsx';
import { MediaField } from './media-field.tsx';

const names = (accounts: AccountSummary[]) =>
  accounts
    .map((a) => {
      const handle = accountHandle(a);
      return `${accountName(a)} (${platformName(a.platform)}${handle !== accountName(a) ? ` · ${handle}` : ''})`;
    })
    .join(', ');

/**
 * Parts published after the first message as a reply chain, on the platforms that have one.
 * Part numbers count the first message as part 1, as the results do (index 0).
 */
export function ThreadEditor({
  parts,
  receiving,
  left,
  countsFor,
  altLimit,
  dispatch,
  addFiles,
  removeMedia,
}: {
  parts: ThreadPart[];
  receiving: AccountSummary[];
  left: AccountSummary[];
  countsFor: (part: ThreadPart) => TargetCount[];
  altLimit: number | null;
  dispatch: Dispatch<ComposerAction>;
  addFiles: (files: FileList | File[], slot: MediaSlot) => void;
  removeMedia: (item: MediaItem, slot: MediaSlot) => void;
}) {
  const full = parts.length >= maxThreadParts;
  // A part added with the button takes the focus, so the keyboard user writes it straight away.
  const focusNext = useRef(false);
  const fullId = useId();
  const lastId = parts.at(-1)?.localId;
  useEffect(() => {
    if (!focusNext.current || !lastId) return;
    focusNext.current = false;
    document.getElementById(`part-${lastId}-message`)?.focus();
  }, [lastId]);
  return (
    <section className="thread stack" aria-labelledby="thread-title">
      <h2 id="thread-title" className="section-title">
        Thread
      </h2>
      <p className="muted small" data-testid="thread-note">
        Parts after the message are published as replies, in order, to {names(receiving)}.
        {left.length > 0 && ` ${names(left)} will not receive the thread: only the first message.`}
      </p>
      {parts.length > 0 && (
        <ol className="thread-parts list">
          {parts.map((part, index) => {
            const id = `part-${part.localId}`;
            const slot: MediaSlot = `part:${part.localId}`;
            const label = `Thread part ${index + 2}`;
            return (
              <li key={part.localId} className="thread-part stack" data-testid="thread-part">
                <div className="field">
                  <div className="row">
                    <label
                      htmlFor={`${id}-message`}
                      className="section-title"
                      style={{ marginRight: 'auto' }}
                    >
                      {label}
                    </label>
                    <button
                      type="button"
                      className="btn btn-sm"
                      onClick={() => dispatch({ type: 'partRemoved', partId: part.localId })}
                    >
                      Remove<span className="sr-only"> {label.toLowerCase()}</span>
                    </button>
                  </div>
                  <textarea
                    id={`${id}-message`}
                    className="textarea"
                    rows={4}
                    value={part.message}
                    onChange={(e) =>
                      dispatch({ type: 'partMessage', partId: part.localId, message: e.target.value })
                    }
                    aria-describedby={`${id}-counters`}
                  />
                  <Counters id={`${id}-counters`} counts={countsFor(part)} className="counter part-counter" />
                </div>
                <MediaField
                  slot={slot}
                  label={`Media of part ${index + 2}`}
                  media={part.media}
                  altLimit={altLimit}
                  inputTestId="part-media-input"
                  dispatch={dispatch}
                  addFiles={(files) => addFiles(files, slot)}
                  removeMedia={(item) => removeMedia(item, slot)}
                />
              </li>
            );
          })}
        </ol>
      )}
      <div className="row">
        {/* Full, it stays focusable and says why (a disabled button would be skipped, its reason unheard). */}
        <button
          type="button"
          className="btn"
          aria-disabled={full || undefined}
          aria-describedby={full ? fullId : undefined}
          onClick={() => {
            if (full) return;
            focusNext.current = true;
            dispatch({ type: 'partAdded' });
          }}
        >
          Add to thread
        </button>
        {full && (
          <span id={fullId} className="muted small">
            A thread has at most {maxThreadParts + 1} parts.
          </span>
        )}
      </div>
    </section>
  );
}
