import { ProblemError, problem } from '@postwave/shared';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret } from '#server/security/tokens.ts';
import { findUser } from '#server/users/repository.ts';
import { findLiveInvitation, markInvitationAccepted } from './invitations-repository.ts';
import { findMembership, insertMember, setCurrentWorkspace } from './repository.ts';
import type { WorkspaceView } from './schema.ts';
import { toWorkspaceView } from './view.ts';

/** What `/invite/{token}` shows before accepting: unknown, used, revoked or expired → undefined. */
export async function previewInvitation(ctx: AppContext, token: string) {
  if (token.length > 200) return undefined;
  const found = await findLiveInvitation(ctx, hashSecret(token), new Date());
  return (
    found && {
      email: found.invitation.email,
      role: found.invitation.role,
      workspaceName: found.workspace.name,
    }
  );
}

/**
 * `POST /api/v1/invitations/accept` `{ token }`: a signed-in person whose verified e-mail is the
 * invited one joins with the invited role (a member already keeps their role) and the workspace
 * becomes their current one. Another address → 403 `invitation_email_mismatch`; an unverified
 * one → 403 `email_unverified` (verify first; not `forbidden`, which is about roles and names one); unknown, used, revoked or expired → 404. Single use even
 * under concurrent accepts (the row is marked accepted once).
 */
export async function acceptInvitation(
  ctx: AppContext,
  userId: string,
  token: string,
): Promise<WorkspaceView> {
  const now = new Date();
  const found = token.length <= 200 ? await findLiveInvitation(ctx, hashSecret(token), now) : undefined;
  if (!found) throw notFound('invitation');
  const user = await findUser(ctx, userId);
  if (!user) throw notFound('invitation');
  if (user.email.toLowerCase() !== found.invitation.email.toLowerCase())
    throw new ProblemError(
      problem(
        'invitation_email_mismatch',
        `This invitation is for another e-mail address than ${user.email}`,
      ),
    );
  if (!user.emailVerifiedAt)
    throw new ProblemError(
      problem(
        'email_unverified',
        'Confirm your e-mail address first (follow its verification link), then accept again',
      ),
    );
  const { invitation, workspace } = found;
  await inTransaction(ctx, async (tx) => {
    if (!(await markInvitationAccepted(tx, invitation.id, now))) throw notFound('invitation');
    const joined = await insertMember(tx, workspace.id, userId, invitation.role, now);
    // Someone already a member keeps their role: nothing joined, nothing to log.
    if (joined)
      await recordAudit(tx, {
        workspaceId: workspace.id,
        actor: { type: 'member', id: userId, name: user.name ?? user.email },
        action: 'member.joined',
        target: { type: 'member', id: userId },
        details: { email: user.email, role: invitation.role, invitationId: invitation.id },
      });
    await setCurrentWorkspace(tx, userId, workspace.id);
  });
  const membership = await findMembership(ctx, userId, workspace.id);
  return toWorkspaceView(membership ?? { workspace, role: invitation.role });
}
