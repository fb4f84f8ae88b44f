'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { TimeZoneField } from '#components/time-zone-field.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, fieldProblems } from '../lib/api.ts';

export type ApprovalMode = 'off' | 'contributors' | 'everyone';

const approvalChoices: { value: ApprovalMode; label: string }[] = [
  { value: 'contributors', label: 'Contributors’ posts wait for approval (the default)' },
  { value: 'everyone', label: 'Everyone’s posts wait for approval' },
  { value: 'off', label: 'Off: only contributors submit (their role always does)' },
];

/**
 * Settings → Workspace for owners and admins (contract G: `PATCH /api/v1/workspaces/{id}`): its
 * name, whose posts wait for approval, its time zone; and, for owners, deleting it. Each outcome is
 * said in a status that takes the focus, so the keyboard never falls to <body>.
 */
export function WorkspaceSettingsForm({
  workspaceId,
  name: initialName,
  approvals: initialApprovals,
  timezone: initialZone,
  zones,
  isOwner,
}: {
  workspaceId: string;
  name: string;
  approvals: ApprovalMode;
  timezone: string;
  zones: string[];
  isOwner: boolean;
}) {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState(initialName);
  const [approvals, setApprovals] = useState(initialApprovals);
  const [timezone, setTimezone] = useState(initialZone);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const nameError = errors.name;
  const zoneError = errors['settings.timezone'];

  const say = (ok: boolean, text: string) => setSummary({ ok, text });
  // Each outcome takes the focus once rendered (a new object each time, so a repeat does too).
  useEffect(() => {
    if (summary) summaryRef.current?.focus();
  }, [summary]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setErrors({ name: 'Give the workspace a name.' });
      setSummary(undefined);
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await api('PATCH', `/api/v1/workspaces/${workspaceId}`, {
        name: name.trim(),
        settings: { approvals, timezone },
      });
      say(true, `Saved the workspace settings of ${name.trim()}.`);
      router.refresh();
    } catch (e) {
      const problems = fieldProblems(e, {
        name: 'Give the workspace a name of at most 100 characters.',
        'settings.timezone': 'Choose a time zone from the list.',
        'settings.approvals': 'Choose one of the approval settings.',
      });
      setErrors(problems.fields);
      say(false, problems.summary);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <form onSubmit={save} className="stack" noValidate aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className="section-title">
          Workspace settings
        </h3>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className="input"
            value={name}
            maxLength={100}
            required
            onChange={(e) => setName(e.target.value)}
            {...invalidProps(`${id}-name-error`, nameError)}
          />
          <FieldError id={`${id}-name-error`}>{nameError}</FieldError>
        </div>
        <div className="field">
          <label htmlFor={`${id}-approvals`}>Approvals</label>
          <select
            id={`${id}-approvals`}
            className="select"
            value={approvals}
            aria-describedby={`${id}-approvals-hint`}
            onChange={(e) => setApprovals(e.target.value as ApprovalMode)}
          >
            {approvalChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          <p className="hint" id={`${id}-approvals-hint`}>
            A post that waits is published, scheduled or queued once an editor, admin or owner approves it.
          </p>
        </div>
        <TimeZoneField
          id={`${id}-zone`}
          zones={zones}
          value={timezone}
          onChange={setTimezone}
          error={zoneError}
        />
        <div>
          <button type="submit" className="btn btn-primary" aria-disabled={busy}>
            {busy ? 'Saving…' : 'Save workspace'}
          </button>
        </div>
        <p
          className={summary ? `alert ${summary.ok ? 'alert-ok' : 'alert-error'}` : 'sr-only'}
          role={summary?.ok === false ? 'alert' : 'status'}
          tabIndex={-1}
          ref={summaryRef}
        >
          {summary?.text}
        </p>
      </form>
      {isOwner && (
        <div className="stack" style={{ gap: 6 }}>
          <h3 className="section-title">Delete the workspace</h3>
          <p className="hint">
            Its accounts, posts, media, queues, feeds, webhooks and tokens are deleted with it. Members keep
            their other workspaces.
          </p>
          <div>
            <ConfirmButton
              label="Delete workspace"
              className="btn btn-sm btn-danger"
              title={`Delete the workspace ${initialName}?`}
              body="Everything in it is deleted for good, for every member. This cannot be undone."
              confirmLabel="Delete workspace"
              onConfirm={async () => {
                await api('DELETE', `/api/v1/workspaces/${workspaceId}`);
                // The session moves to another workspace of the person's: a full load shows it.
                window.location.assign('/settings?deleted=workspace#workspace');
              }}
            />
          </div>
        </div>
      )}
    </div>
  );
}

/** `POST /api/v1/workspaces` (anyone signed in; they become its owner), then an offer to switch to it. */
export function CreateWorkspaceForm() {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<{ id: string; name: string }>();
  const [busy, setBusy] = useState(false);
  const createdRef = useRef<HTMLDivElement>(null);
  // The confirmation takes the focus once it is rendered (the button pressed stays, but the next
  // step, switching, is in the confirmation).
  useEffect(() => {
    if (created) createdRef.current?.focus();
  }, [created]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const input = document.getElementById(`${id}-name`);
    if (!name.trim()) {
      setError('Give the new workspace a name.');
      input?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const workspace = await api<{ id: string; name: string }>('POST', '/api/v1/workspaces', {
        name: name.trim(),
      });
      setCreated(workspace);
      setName('');
      // The navigation's switcher lists it too.
      router.refresh();
    } catch (e) {
      const problems = fieldProblems(e, { name: 'Give the new workspace a name of at most 100 characters.' });
      setError(problems.fields.name ?? problems.summary);
      input?.focus();
    } finally {
      setBusy(false);
    }
  };

  const switchTo = async (workspaceId: string) => {
    try {
      await api('POST', `/api/v1/workspaces/${workspaceId}/switch`);
      // A full load (every part of the page belongs to the workspace); the query makes it one even
      // from /settings#workspace, where a hash-only change would not load anything.
      window.location.assign(`/settings?switched=${encodeURIComponent(workspaceId)}#workspace`);
    } catch (e) {
      setError(fieldProblems(e, {}).summary);
    }
  };

  return (
    <form onSubmit={create} className="stack" noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="section-title">
        New workspace
      </h3>
      <div className="row" style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}>
        <div className="field" style={{ flex: '1 1 14rem' }}>
          <label htmlFor={`${id}-name`}>Name of the new workspace</label>
          <input
            id={`${id}-name`}
            className="input"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            {...invalidProps(`${id}-error`, error, `${id}-hint`)}
          />
        </div>
        <button type="submit" className="btn" aria-disabled={busy}>
          {busy ? 'Creating…' : 'Create workspace'}
        </button>
      </div>
      <p className="hint" id={`${id}-hint`}>
        You become its owner. It starts empty: connect its accounts and invite its members there.
      </p>
      <FieldError id={`${id}-error`}>{error}</FieldError>
      {created && (
        <div className="alert alert-ok row" role="status" tabIndex={-1} ref={createdRef}>
          <span>Created the workspace {created.name}.</span>
          <button type="button" className="btn btn-sm" onClick={() => switchTo(created.id)}>
            Switch to {created.name}
          </button>
        </div>
      )}
    </form>
  );
}
