'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

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
}: {
  workspaceId: string;
  /** The person's time zone: every date is written in it (components/lib/time.ts). */
  timezone: string;
  members: MemberRow[];
  invitations: InvitationRow[];
  canManage: boolean;
  isOwner: boolean;
  selfId: string;
}) {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('editor');
  const [invited, setInvited] = useState<{ email: string; url: string }>();
  const [error, setError] = useState<string>();
  const base = `/api/v1/workspaces/${workspaceId}`;
  const grantable = roles.filter((r) => isOwner || r !== 'owner');

  const run = async (work: () => Promise<void>) => {
    setError(undefined);
    try {
      await work();
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const invite = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const created = await api<{ email: string; url: string }>('POST', `${base}/invitations`, {
        email,
        role,
      });
      setInvited(created);
      setEmail('');
    });
  };

  return (
    <div className="stack">
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
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
                      className="input"
                      aria-label={`Role of ${m.name ?? m.email}`}
                      value={m.role}
                      onChange={(e) =>
                        void run(() => api('PATCH', `${base}/members/${m.userId}`, { role: e.target.value }))
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
                        onConfirm={() => run(() => api('DELETE', `${base}/members/${m.userId}`))}
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
              />
            </div>
            <div className="field">
              <label htmlFor="invite-role">Role</label>
              <select
                id="invite-role"
                className="input"
                value={role}
                onChange={(e) => setRole(e.target.value)}
              >
                {grantable.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-primary">
              Invite
            </button>
          </form>
          {invited && (
            <p className="alert alert-info" role="status">
              Invitation for {invited.email} sent. The link, shown only now: <code>{invited.url}</code>
            </p>
          )}
          {invitations.length > 0 && (
            <ul className="stack" aria-label="Open invitations">
              {invitations.map((i) => (
                <li key={i.id} className="row">
                  <span>
                    {i.email} as {i.role}, until {formatDateTime(i.expiresAt, timezone)}
                  </span>
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() => void run(() => api('DELETE', `${base}/invitations/${i.id}`))}
                  >
                    Revoke
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
