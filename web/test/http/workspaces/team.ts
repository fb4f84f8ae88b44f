import assert from 'node:assert/strict';
import type { RunningApp } from '../../helpers/app.ts';
import { Client, signUp } from '../../helpers/client.ts';
import type { MailCapture } from '../../helpers/mail-capture.ts';

/*
 * A workspace with one member of every role, built through the API as people would: the owner
 * signs up, invites by e-mail, each invitee signs up, confirms their address and accepts.
 */

export type Role = 'owner' | 'admin' | 'editor' | 'contributor' | 'viewer';
export const roles: Role[] = ['owner', 'admin', 'editor', 'contributor', 'viewer'];

export interface Member {
  role: Role;
  userId: string;
  email: string;
  session: Client;
  /** A personal token bound to the team workspace. */
  api: Client;
}

export interface Team {
  workspaceId: string;
  members: Record<Role, Member>;
}

/** The verification link the app logged for a user (LOG_LEVEL=info, no SMTP). */
async function loggedVerifyLink(app: RunningApp, userId: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const line of app.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as Record<string, string>;
        if (entry.userId === userId && entry.verifyLink) return entry.verifyLink;
      } catch {}
    }
    if (Date.now() > deadline) throw new Error(`no verification link logged for ${userId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The verification link mailed to `address` (an app with SMTP set up mails it instead of logging it). */
export async function mailedVerifyLink(mail: MailCapture, address: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const message of mail.to(address)) {
      // Quoted-printable: soft line breaks and `=3D` for `=`.
      const text = message.raw.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
      const found = /https?:\/\/[^\s"<>]*\/verify-email\?token=[^\s"<>&]+/.exec(text);
      if (found) return found[0];
    }
    if (Date.now() > deadline) throw new Error(`no verification link mailed to ${address}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A signed-up person whose e-mail address is verified (they followed the link). */
export async function verifiedPerson(app: RunningApp, name: string, mail?: MailCapture) {
  const { client, user } = await signUp(app.url, name);
  const link = new URL(
    mail ? await mailedVerifyLink(mail, user.email) : await loggedVerifyLink(app, user.id),
  );
  const res = await new Client(app.url).fetch('/api/auth/verify-email', {
    json: { token: link.searchParams.get('token') },
  });
  assert.equal(res.status, 204);
  return { session: client, userId: user.id, email: user.email };
}

export async function currentWorkspace(client: Client): Promise<string> {
  const res = await client.json('/api/v1/workspaces');
  assert.equal(res.status, 200);
  return res.body.currentWorkspaceId;
}

/** `inviter` invites `person` with `role`; `person` accepts with the token from the url. */
export async function invite(
  inviter: Client,
  workspaceId: string,
  person: { session: Client; email: string },
  role: Role,
) {
  const created = await inviter.json(`/api/v1/workspaces/${workspaceId}/invitations`, {
    json: { email: person.email, role },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const token = decodeURIComponent(new URL(created.body.url).pathname.split('/').pop()!);
  const accepted = await person.session.json('/api/v1/invitations/accept', { json: { token } });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.equal(accepted.body.workspace.id, workspaceId);
  assert.equal(accepted.body.workspace.role, role);
  return token;
}

export async function tokenIn(
  member: { session: Client },
  workspaceId: string,
  name = 'tests',
): Promise<Client> {
  const res = await member.session.json('/api/v1/tokens', { json: { name, workspaceId } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.workspaceId, workspaceId);
  return member.session.withToken(res.body.token);
}

export async function buildTeam(app: RunningApp, label: string, mail?: MailCapture): Promise<Team> {
  const owner = await verifiedPerson(app, `${label}-owner`, mail);
  const workspaceId = await currentWorkspace(owner.session);
  const members = {
    owner: { role: 'owner', ...owner, api: await tokenIn(owner, workspaceId) },
  } as Record<Role, Member>;
  for (const role of roles.slice(1)) {
    const person = await verifiedPerson(app, `${label}-${role}`, mail);
    await invite(owner.session, workspaceId, person, role);
    members[role] = { role, ...person, api: await tokenIn(person, workspaceId) };
  }
  return { workspaceId, members };
}

/** 403 `forbidden` naming the least role that may (contract section G). */
export function assertForbidden(
  res: { status: number; body: { code?: string; requiredRole?: string } },
  requiredRole: Role,
) {
  assert.equal(res.status, 403, JSON.stringify(res.body));
  assert.equal(res.body.code, 'forbidden');
  assert.equal(res.body.requiredRole, requiredRole);
}
