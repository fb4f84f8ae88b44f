'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useReducer } from 'react';
import { ApiError, describeFormError, isPastTime } from '#components/lib/api.ts';
import { type AccountSummary, accountName, platformName } from '#components/lib/platforms.ts';
import { AccountChips } from './account-chips.tsx';
import { ActionBar } from './action-bar.tsx';
import {
  altTextLimit,
  partCounts,
  readiness,
  requestBody,
  targetCounts,
  threadAudience,
  versionOf,
} from './composer-selectors.ts';
import {
  type EditablePost,
  initialState,
  type MediaItem,
  type MediaRef,
  type MediaSlot,
  type SubmitMode,
} from './composer-state.ts';
import { MediaField } from './media-field.tsx';
import { slotMedia } from './media-slots.ts';
import { MessageField } from './message-field.tsx';
import { NoAccounts } from './no-accounts.tsx';
import { Previews } from './previews.tsx';
import { RecycleField } from './recycle-field.tsx';
import { SaveAsTemplate } from './save-as-template.tsx';
import { SignatureNotes } from './signature-notes.tsx';
import { type SnippetSummary, signedReducer, signedStart, visibleSignatures } from './signatures.ts';
import { SubmitChecks } from './submit-checks.tsx';
import { pastTimeMessage, SubmitRefused, scheduledTime, submitPost } from './submit-post.ts';
import { TargetPanel } from './target-panel.tsx';
import { ThreadEditor } from './thread-editor.tsx';
import { useLiveValidation } from './use-live-validation.ts';
import { recycleRefusedMessage, useRecycle } from './use-recycle.ts';
import { useUploads } from './use-uploads.ts';
import { VersionEditor } from './version-editor.tsx';
import { VersionTabs } from './version-tabs.tsx';

export type { EditablePost } from './composer-state.ts';

const allSlots = (state: ReturnType<typeof initialState>): MediaSlot[] => [
  'base',
  ...Object.keys(state.overrides).map((id): MediaSlot => `account:${id}`),
  ...state.thread.map((p): MediaSlot => `part:${p.localId}`),
];

const noSnippets: SnippetSummary[] = [];

/** Writes a post once for several accounts, each target checked and counted as its platform does. */
export function Composer({
  accounts,
  timezone,
  post,
  template,
  snippets = noSnippets,
  canSaveTemplate = false,
  initialMedia,
  needsApproval = false,
}: {
  accounts: AccountSummary[];
  timezone: string;
  /** The post being edited; absent for a new post. */
  post?: EditablePost;
  /** A new post's starting content ("New post from template"). */
  template?: EditablePost;
  /** The workspace's snippets: the picker's list and the accounts' default signatures. */
  snippets?: SnippetSummary[];
  /** Whether to offer "Save as template" (owners and admins). */
  canSaveTemplate?: boolean;
  initialMedia?: MediaRef[];
  /** The caller's publish, schedule and queue requests wait for approval (docs/workspaces.md#approvals). */
  needsApproval?: boolean;
}) {
  const router = useRouter();
  const reducer = useMemo(() => signedReducer(snippets), [snippets]);
  const [state, dispatch] = useReducer(reducer, undefined, () =>
    signedStart(initialState(accounts, timezone, post ?? template, initialMedia), snippets, !post),
  );
  const uploads = useUploads(dispatch);
  // A recycled copy follows its original's settings: only originals offer "Repeat this post".
  const recyclable = !post?.recycledFrom;
  const recycle = useRecycle(post?.recycle, timezone, recyclable);
  const addFiles = (files: FileList | File[], slot: MediaSlot) => uploads.addFiles(files, slot);
  const removeMedia = (item: MediaItem, slot: MediaSlot) => {
    const heldElsewhere = allSlots(state).some(
      (s) => s !== slot && slotMedia(state, s).some((m) => m.localId === item.localId),
    );
    uploads.removeMedia(item, slot, heldElsewhere);
  };

  const body = requestBody(state, accounts);
  const bodyKey = JSON.stringify(body);
  useLiveValidation(bodyKey, state.selected.length, dispatch);

  const counts = useMemo(() => targetCounts(state, accounts), [state, accounts]);
  const { uploading, canPublish, blockReason } = readiness(state, counts, accounts);
  const audience = threadAudience(state, accounts);
  const { limit: altLimit, without: withoutAlt } = altTextLimit(state, accounts);
  const altNote = withoutAlt.length
    ? `${withoutAlt.map((a) => `${accountName(a)} (${platformName(a.platform)})`).join(', ')} ${withoutAlt.length === 1 ? 'shows' : 'show'} no alt text: the media goes without it.`
    : undefined;
  const selectedAccounts = accounts.filter((a) => state.selected.includes(a.id));
  const activeAccount = selectedAccounts.find((a) => a.id === state.activeTab);

  const submit = async (mode: SubmitMode) => {
    if (!recycle.check()) {
      dispatch({ type: 'submitRefused', error: recycleRefusedMessage });
      return;
    }
    try {
      const scheduledAt = mode === 'schedule' ? scheduledTime(state.scheduleAt, timezone) : undefined;
      dispatch({ type: 'submitStarted', mode });
      const id = await submitPost(mode, body, post, scheduledAt, recycle.body());
      router.push(`/posts/${id}?done=${mode}`);
      router.refresh();
    } catch (e) {
      // The server's refusals in the composer's own words, each said once: a past time as the
      // picker's sentence, the repeat settings at their fields.
      if (isPastTime(e)) {
        dispatch({ type: 'submitRefused', error: pastTimeMessage });
        return;
      }
      const { onFields, rest } = recycle.refusedBy(e instanceof ApiError ? e.errors : []);
      // The issues the composer shows itself (the general ones above the buttons, an account's
      // beside it) stay out of the summary, so no sentence is announced twice.
      const shown = rest.filter((i) => !i.accountId || state.selected.includes(i.accountId));
      dispatch({
        type: 'submitRefused',
        error:
          e instanceof SubmitRefused
            ? e.message
            : onFields
              ? recycleRefusedMessage
              : describeFormError(e, (path) => shown.some((i) => i.path === path)),
        issues: e instanceof ApiError ? rest : undefined,
      });
    }
  };

  if (accounts.length === 0) return <NoAccounts />;

  return (
    <div className="composer">
      <section className="card composer-post" aria-label="Post">
        <div className="card-body stack">
          <AccountChips accounts={accounts} selected={state.selected} dispatch={dispatch} />
          <VersionTabs
            accounts={selectedAccounts}
            active={activeAccount ? activeAccount.id : 'base'}
            edited={(id) => Boolean(state.overrides[id])}
            onSelect={(tab) => dispatch({ type: 'tab', tab })}
          >
            {activeAccount ? (
              <VersionEditor
                account={activeAccount}
                version={versionOf(state, activeAccount.id)}
                count={counts.find((c) => c.account.id === activeAccount.id)}
                dispatch={dispatch}
                addFiles={(files) => addFiles(files, `account:${activeAccount.id}`)}
                removeMedia={(item) => removeMedia(item, `account:${activeAccount.id}`)}
              />
            ) : (
              <>
                <MessageField
                  message={state.message}
                  counts={counts}
                  dispatch={dispatch}
                  snippets={snippets}
                />
                <SignatureNotes
                  signatures={visibleSignatures(
                    { message: state.message, inserted: state.signatures },
                    snippets,
                  )}
                  dispatch={dispatch}
                />
                <MediaField
                  slot="base"
                  label="Media"
                  media={state.media}
                  altLimit={altLimit}
                  altNote={altNote}
                  inputTestId="media-input"
                  dispatch={dispatch}
                  addFiles={(files) => addFiles(files, 'base')}
                  removeMedia={(item) => removeMedia(item, 'base')}
                />
              </>
            )}
          </VersionTabs>
          {audience.receiving.length > 0 && (
            <ThreadEditor
              parts={state.thread}
              receiving={audience.receiving}
              left={audience.left}
              countsFor={(part) => partCounts(state, accounts, part)}
              altLimit={altLimit}
              dispatch={dispatch}
              addFiles={addFiles}
              removeMedia={removeMedia}
            />
          )}
          {recyclable && (
            <RecycleField
              draft={recycle.draft}
              timezone={timezone}
              errors={recycle.errors}
              onChange={recycle.setDraft}
            />
          )}
        </div>
        {/* Errors and checks sit right above the buttons they concern (issue 30). */}
        <div className="submit-feedback">
          {state.generalIssues.length > 0 && (
            <div className="alert alert-error" role="alert">
              {state.generalIssues.join(' ')}
            </div>
          )}
          {state.error && (
            <div className="alert alert-error" role="alert">
              {state.error}
            </div>
          )}
          <SubmitChecks state={state} accounts={accounts} />
        </div>
        <ActionBar
          state={state}
          timezone={timezone}
          canPublish={canPublish}
          uploading={uploading}
          blockReason={blockReason}
          dispatch={dispatch}
          submit={submit}
          needsApproval={needsApproval}
        />
        {canSaveTemplate && (
          <div className="card-body">
            <SaveAsTemplate content={() => body} />
          </div>
        )}
      </section>
      <div className="composer-previews">
        <Previews state={state} accounts={accounts} />
      </div>

      <aside className="stack composer-checks" aria-label="Accounts and checks">
        <div className="row">
          <h2 className="section-title">Checks</h2>
          {state.validating && <span className="muted small">Checking…</span>}
        </div>
        {counts.length === 0 ? (
          <p className="muted small card card-body">
            Choose accounts to see how each platform sees this post.
          </p>
        ) : (
          <ul className="target-list list">
            {counts.map(({ account }) => (
              <TargetPanel
                key={account.id}
                account={account}
                result={state.results[account.id]}
                options={state.options[account.id] ?? {}}
                uploads={state.optionUploads}
                timezone={timezone}
                setOption={(name, value) => dispatch({ type: 'option', accountId: account.id, name, value })}
                uploadOption={(name, file) => uploads.uploadOption(account.id, name, file)}
              />
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
