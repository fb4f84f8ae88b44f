import type { Metadata } from 'next';
import { AcceptInvitationForm } from '../../../components/accept-invitation-form.tsx';
import { CenteredCard, ErrorCard } from '../../../components/consent-card.tsx';
import { getContext } from '../../../server/context.ts';
import { resendVerificationAction } from '../../../server/ui/actions.ts';
import { acceptInvitationAction } from '../../../server/ui/invitation-actions.ts';
import { currentUser } from '../../../server/ui/session.ts';
import { previewInvitation } from '../../../server/workspaces/accept-invitation.ts';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a workspace', referrer: 'no-referrer' };

/**
 * `/invite/{token}` (docs/workspaces.md#invitations): who invited whom to what; a new person
 * creates their account (the invited address filled in) and comes back here, someone signed in
 * with the invited, verified address accepts.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await previewInvitation(await getContext(), token);
  if (!invitation)
    return (
      <ErrorCard
        title="This invitation is no longer valid"
        message="It was used, revoked or has expired. Ask for a new invitation."
      />
    );
  const here = `/invite/${encodeURIComponent(token)}`;
  const user = await currentUser();
  return (
    <CenteredCard>
      <header>
        <h1>Join {invitation.workspaceName}</h1>
        <p className="muted">
          You are invited as <strong>{invitation.role}</strong>, at <strong>{invitation.email}</strong>.
        </p>
      </header>
      {!user && (
        <div className="stack">
          <a
            className="btn btn-primary"
            href={`/signup?${new URLSearchParams({ next: here, email: invitation.email })}`}
          >
            Create your account
          </a>
          <a className="btn" href={`/signin?${new URLSearchParams({ next: here })}`}>
            I already have an account: sign in
          </a>
        </div>
      )}
      {user && user.email.toLowerCase() !== invitation.email.toLowerCase() && (
        <p className="alert alert-error" role="alert">
          You are signed in as {user.email}; this invitation is for {invitation.email}. Sign out and sign in
          with that address.
        </p>
      )}
      {user && user.email.toLowerCase() === invitation.email.toLowerCase() && !user.emailVerified && (
        <div className="stack">
          <p className="alert alert-info">
            Confirm your e-mail address first: follow the link we sent to <strong>{user.email}</strong>, then
            come back to this page.
          </p>
          <form action={resendVerificationAction}>
            <button type="submit" className="btn btn-sm">
              Send a new link
            </button>
          </form>
        </div>
      )}
      {user && user.email.toLowerCase() === invitation.email.toLowerCase() && user.emailVerified && (
        <AcceptInvitationForm token={token} accept={acceptInvitationAction} />
      )}
    </CenteredCard>
  );
}
