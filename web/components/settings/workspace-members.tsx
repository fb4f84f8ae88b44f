'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useRef, useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, describeError, fieldProblems } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useTimeSettings } from '../lib/time-context.tsx';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { CopyButton } from './copy-button.tsx';

const roles = ['owner', 'admin', 'editor', 'contributor', 'viewer'] as const;

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: string;
}
export interface InvitationRow {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}

/**
 * Settings → Workspace: members and invitations over `/api/v1/workspaces/{id}/…`
 * (docs/workspaces.md#members). Managers (owners, admins) change roles, remove and invite; the
 * server refuses what a role may not (an admin touching an owner, the last owner leaving) and the
 * refusal is shown as it comes.
 */
export function WorkspaceMembers({
  workspaceId,
  members,
  invitations,
  canManage,
  isOwner,
  selfId,
  timezone,
  mailConfigured,
}: {
  workspaceId: string;
  /** Whether the server can e-mail the invitation (SMTP set up); if not, the person sends the link. */
  mailConfigured: boolean;
  /** The person's time zone: every date is written in it (components/lib/time.ts). */
  timezone: string;
  members: MemberRow[];
  invitations: InvitationRow[];
  canManage: boolean;
  isOwner: boolean;
  selfId: string;
}) {
  const router = useRouter();
  const { locale } = useTimeSettings();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('editor');
  const [invited, setInvited] = useState<{ email: string; url: string }>();
  const [error, setError] = useState<string>();
  const base = `/api/v1/workspaces/${workspaceId}`;
  const grantable = roles.filter((r) => isOwner || r !== 'owner');

  const errorRef = useRef<HTMLParagraphElement>(null);
  const [done, setDone] = useState<string>();
  const doneRef = useRef<HTMLParagraphElement>(null);
  const focusAfterRender = useFocusAfterRender();
  /**
   * Runs one change; a refusal is said in the alert, and the focus goes back to `refocus` (the
   * role select, whose value snaps back) or else to the alert: never to <body>. A change that
   * removes the pressed button with its row (a member removed, an invitation revoked) says what it
   * did in a status, `outcome`, which takes the focus.
   */
  const run = async (work: () => Promise<unknown>, refocus?: string, outcome?: string) => {
    setError(undefined);
    setDone(undefined);
    try {
      await work();
      if (outcome) {
        setDone(outcome);
        focusAfterRender(doneRef);
      }
      router.refresh();
    } catch (e) {
      setError(describeError(e));
      focusAfterRender(() => (refocus && document.getElementById(refocus)) || errorRef.current);
    }
  };
  const [inviteErrors, setInviteErrors] = useState<{ email?: string; role?: string }>({});
  const [inviteError, setInviteError] = useState<string>();
  const [inviting, setInviting] = useState(false);
  /** The invite form's errors: each under its field, the first marked field takes the focus. */
  const showInviteErrors = (errors: { email?: string; role?: string }, summary?: string) => {
    setInviteErrors(errors);
    setInviteError(summary);
    if (errors.email) focusAfterRender('invite-email');
    else if (errors.role) focusAfterRender('invite-role');
  };
  const invite = async (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (inviting) return;
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()))
      return showInviteErrors({ email: 'Enter an e-mail address, like name@example.com.' });
    setInviting(true);
    showInviteErrors({});
    try {
      const created = await api<{ email: string; url: string }>('POST', `${base}/invitations`, {
        email: email.trim(),
        role,
      });
      setInvited(created);
      setEmail('');
      router.refresh();
    } catch (e) {
      const problems = fieldProblems(e, {
        email: (issue) =>
          issue.code === 'already_member'
            ? `${email.trim()} is already a member: change their role above instead.`
            : 'Enter an e-mail address, like name@example.com.',
        role: 'Choose a role you may give.',
      });
      showInviteErrors(problems.fields, problems.summary);
    } finally {
      setInviting(false);
    }
  };

  return (
    <div className="stack">
      {error && (
        <p className="alert alert-error" role="alert" id="members-error" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
      {done && (
        <p className="alert alert-ok" role="status" tabIndex={-1} ref={doneRef}>
          {done}
        </p>
      )}
      <div className="table-scroll">
        <table className="table">
          <caption className="sr-only">Members</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              {canManage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId}>
                <td>
                  {m.name ?? m.email} {m.name && <span className="muted">{m.email}</span>}
                  {m.userId === selfId && <span className="muted"> (you)</span>}
                </td>
                <td>
                  {canManage && (isOwner || m.role !== 'owner') ? (
                    <select
                      id={`role-${m.userId}`}
                      className="input"
                      aria-label={`Role of ${m.name ?? m.email}`}
                      aria-describedby={error ? 'members-error' : undefined}
                      value={m.role}
                      onChange={(e) =>
                        void run(
                          () => api('PATCH', `${base}/members/${m.userId}`, { role: e.target.value }),
                          `role-${m.userId}`,
                        )
                      }
                    >
                      {grantable.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    m.role
                  )}
                </td>
                {canManage && (
                  <td>
                    {(isOwner || m.role !== 'owner') && (
                      <ConfirmButton
                        label="Remove"
                        title={`Remove ${m.name ?? m.email}?`}
                        body="Their tokens and connected assistants for this workspace stop working at once."
                        confirmLabel="Remove"
                        onConfirm={() =>
                          run(
                            () => api('DELETE', `${base}/members/${m.userId}`),
                            undefined,
                            `Removed ${m.name ?? m.email} from the workspace.`,
                          )
                        }
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canManage && (
        <>
          <form
            onSubmit={invite}
            className="row"
            style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}
            noValidate
          >
            <div className="field" style={{ flex: 1, minWidth: 220 }}>
              <label htmlFor="invite-email">Invite by e-mail</label>
              <input
                id="invite-email"
                type="email"
                className="input"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                {...invalidProps('invite-email-error', inviteErrors.email)}
              />
              <FieldError id="invite-email-error">{inviteErrors.email}</FieldError>
            </div>
            <div className="field">
              <label htmlFor="invite-role">Role</label>
              <select
                id="invite-role"
                className="input"
                value={role}
                onChange={(e) => setRole(e.target.value)}
                {...invalidProps('invite-role-error', inviteErrors.role)}
              >
                {grantable.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              <FieldError id="invite-role-error">{inviteErrors.role}</FieldError>
            </div>
            <button type="submit" className="btn btn-primary" aria-disabled={inviting || undefined}>
              Invite
            </button>
          </form>
          {inviteError && (
            <p className="alert alert-error" role="alert">
              {inviteError}
            </p>
          )}
          {invited && (
            <div className="alert alert-info stack invite-link" role="status" style={{ gap: 8 }}>
              <p>
                {mailConfigured
                  ? `Invitation for ${invited.email} sent by e-mail. The link, shown only now:`
                  : `Invitation for ${invited.email} created. Copy this link and send it to them: no e-mail server is configured, so it was not e-mailed. It is shown only now.`}
              </p>
              <div className="token-secret">
                {/* Wraps anywhere (not the secrets' one scrolling line): a link is read, and fits a phone. */}
                <code
                  data-testid="invitation-url"
                  style={{ whiteSpace: 'normal', overflowWrap: 'anywhere', flexBasis: '14rem' }}
                >
                  {invited.url}
                </code>
                <CopyButton text={invited.url} label="invitation link" />
              </div>
            </div>
          )}
          {invitations.length > 0 && (
            <ul className="stack" aria-label="Open invitations">
              {invitations.map((i) => (
                <li key={i.id} className="row" style={{ flexWrap: 'wrap' }}>
                  <span style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    {i.email} as {i.role}, until {formatDateTime(i.expiresAt, timezone, locale)}
                  </span>
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() =>
                      void run(
                        () => api('DELETE', `${base}/invitations/${i.id}`),
                        undefined,
                        `Revoked the invitation for ${i.email}.`,
                      )
                    }
                  >
                    Revoke<span className="sr-only"> the invitation for {i.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
