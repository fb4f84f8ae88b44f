'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useReducer } from 'react';
import { ApiError, describeError } from '#components/lib/api.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';
import { AccountChips } from './account-chips.tsx';
import { ActionBar } from './action-bar.tsx';
import { readiness, requestBody, targetCounts } from './composer-selectors.ts';
import { composerReducer, type EditablePost, initialState, type SubmitMode } from './composer-state.ts';
import { MediaField } from './media-field.tsx';
import { MessageField } from './message-field.tsx';
import { NoAccounts } from './no-accounts.tsx';
import { SubmitRefused, scheduledTime, submitPost } from './submit-post.ts';
import { TargetPanel } from './target-panel.tsx';
import { useLiveValidation } from './use-live-validation.ts';
import { useUploads } from './use-uploads.ts';

export type { EditablePost } from './composer-state.ts';

/** Writes a post once for several accounts, each target checked and counted as its platform does. */
export function Composer({
  accounts,
  timezone,
  post,
}: {
  accounts: AccountSummary[];
  timezone: string;
  post?: EditablePost;
}) {
  const router = useRouter();
  const [state, dispatch] = useReducer(composerReducer, undefined, () =>
    initialState(accounts, timezone, post),
  );
  const { addFiles, removeMedia, uploadOption } = useUploads(dispatch);

  const body = requestBody(state);
  const bodyKey = JSON.stringify(body);
  useLiveValidation(bodyKey, state.selected.length, dispatch);

  const counts = useMemo(() => targetCounts(state, accounts), [state, accounts]);
  const { uploading, canPublish, blockReason } = readiness(state, counts);

  const submit = async (mode: SubmitMode) => {
    try {
      const scheduledAt = mode === 'schedule' ? scheduledTime(state.scheduleAt, timezone) : undefined;
      dispatch({ type: 'submitStarted', mode });
      const id = await submitPost(mode, body, post, scheduledAt);
      router.push(`/posts/${id}?done=${mode}`);
      router.refresh();
    } catch (e) {
      dispatch({
        type: 'submitRefused',
        error: e instanceof SubmitRefused ? e.message : describeError(e),
        issues: e instanceof ApiError ? e.errors : undefined,
      });
    }
  };

  if (accounts.length === 0) return <NoAccounts />;

  return (
    <div className="composer">
      <section className="card" aria-label="Post">
        <div className="card-body stack">
          <AccountChips accounts={accounts} selected={state.selected} dispatch={dispatch} />
          <MessageField message={state.message} counts={counts} dispatch={dispatch} />
          <MediaField
            media={state.media}
            dragging={state.dragging}
            dispatch={dispatch}
            addFiles={addFiles}
            removeMedia={removeMedia}
          />
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
        </div>
        <ActionBar
          state={state}
          timezone={timezone}
          canPublish={canPublish}
          uploading={uploading}
          blockReason={blockReason}
          dispatch={dispatch}
          submit={submit}
        />
      </section>

      <aside className="stack" aria-label="Accounts and checks">
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
                uploadOption={(name, file) => uploadOption(account.id, name, file)}
              />
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
