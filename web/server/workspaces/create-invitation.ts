import { actorOf } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { Caller } from '#server/auth/caller.ts';
import { atLeast, forbiddenFor } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { validationFailed } from '#server/http/problems.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import { mailInvitation } from './invitation-mail.ts';
import { insertInvitation } from './invitations-repository.ts';
import { findWorkspace, membersOf } from './repository.ts';

export const invitationTokenPrefix = 'pwi_';
/** Invitations live 7 days (contract section G). */
export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export function invitationUrl(ctx: AppContext, token: string): string {
  return `${ctx.config.appUrl}/invite/${encodeURIComponent(token)}`;
}

/**
 * `POST /api/v1/workspaces/{id}/invitations` `{ email, role }`: a single-use link with a random
 * 256-bit token, stored only as its SHA-256 (docs/workspaces.md#invitations). The url is in this
 * answer once and e-mailed to the address; only owners invite owners.
 */
export async function createInvitation(
  ctx: AppContext,
  caller: Caller,
  input: { email: string; role: WorkspaceRole },
) {
  if (input.role === 'owner' && !atLeast(caller.role, 'owner'))
    throw forbiddenFor('owner', 'Only an owner may invite an owner');
  // Someone already a member would keep their role on accepting: the link could do nothing, so
  // the mistake is said now (422 naming `email`); a role is changed on the member list instead.
  const members = await membersOf(ctx, caller.workspaceId);
  if (members.some((m) => m.email.toLowerCase() === input.email.toLowerCase()))
    throw validationFailed('This person is already a member of the workspace', [
      {
        path: 'email',
        code: 'already_member',
        message: 'Already a member: change their role on the member list instead',
      },
    ]);
  const token = newSecret(invitationTokenPrefix);
  const now = new Date();
  // The invitation and its `member.invited` entry commit together (never the token or the url).
  const row = await inTransaction(ctx, async (tx) => {
    const invitation = await insertInvitation(tx, {
      id: crypto.randomUUID(),
      workspaceId: caller.workspaceId,
      email: input.email,
      role: input.role,
      tokenHash: hashSecret(token),
      invitedBy: caller.userId,
      expiresAt: new Date(now.getTime() + invitationLifetimeMs),
      createdAt: now,
    });
    await recordAudit(tx, {
      workspaceId: caller.workspaceId,
      actor: actorOf(caller),
      action: 'member.invited',
      target: { type: 'invitation', id: invitation.id },
      details: { email: invitation.email, role: invitation.role },
    });
    return invitation;
  });
  const url = invitationUrl(ctx, token);
  const workspace = await findWorkspace(ctx, caller.workspaceId);
  await mailInvitation(ctx, {
    to: row.email,
    url,
    workspaceName: workspace?.name ?? 'a workspace',
    inviter: caller.actor.name,
    role: row.role,
  });
  return { id: row.id, email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString(), url };
}
