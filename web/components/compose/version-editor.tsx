import type { Dispatch } from 'react';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import { accountAltLimit, type TargetCount } from './composer-selectors.ts';
import type { ComposerAction, MediaItem } from './composer-state.ts';
import { Counters } from './counters.tsx';
import { MediaField } from './media-field.tsx';

/** One account's version: the base post until edited here; "Reset to base" drops the version. */
export function VersionEditor({
  account,
  version,
  count,
  dispatch,
  addFiles,
  removeMedia,
}: {
  account: AccountSummary;
  version: { message: string; media: MediaItem[]; edited: boolean };
  count: TargetCount | undefined;
  dispatch: Dispatch<ComposerAction>;
  addFiles: (files: FileList | File[]) => void;
  removeMedia: (item: MediaItem) => void;
}) {
  const name = accountName(account);
  const handle = accountHandle(account);
  // Two accounts may share a label (two chats named alike): the handle tells them apart.
  const who = handle !== name ? `${name} (${handle})` : name;
  const id = `version-${account.id}`;
  return (
    <div className="stack">
      <div className="row version-note">
        <p className="muted small" style={{ marginRight: 'auto' }}>
          {version.edited
            ? `${name} on ${platformName(account.platform)} publishes its own version below.`
            : `${name} publishes the base post. Edit it here to give this account its own version.`}
        </p>
        {version.edited && (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => dispatch({ type: 'versionReset', accountId: account.id })}
          >
            Reset to base
          </button>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`} className="section-title">
          Version for {who}
        </label>
        <textarea
          id={`${id}-message`}
          className="textarea"
          value={version.message}
          onChange={(e) =>
            dispatch({ type: 'versionMessage', accountId: account.id, message: e.target.value })
          }
          rows={8}
          aria-describedby={`${id}-counter`}
        />
        <Counters id={`${id}-counter`} counts={count ? [count] : []} className="counter version-counter" />
      </div>
      <MediaField
        slot={`account:${account.id}`}
        label={`Media for ${who}`}
        media={version.media}
        // This version's media goes to this account only: its platform's limit applies.
        altLimit={accountAltLimit(account)}
        altNote={
          accountAltLimit(account) === null
            ? `${platformName(account.platform)} shows no alt text: the media goes without it.`
            : undefined
        }
        inputTestId="version-media-input"
        dispatch={dispatch}
        addFiles={addFiles}
        removeMedia={removeMedia}
      />
    </div>
  );
}
