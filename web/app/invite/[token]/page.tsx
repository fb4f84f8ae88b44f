import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AcceptInvitationForm } from '../../../components/accept-invitation-form.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { getConfig, getContext } from '../../../server/context.ts';
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
export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ verification?: string }>;
}) {
  const { token } = await params;
  const { verification } = await searchParams;
  const invitation = await previewInvitation(await getContext(), token);
  // A used, revoked, expired or unknown link is a 404, with the card of not-found.tsx beside this page.
  if (!invitation) notFound();
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
        <ConfirmAddressFirst
          email={user.email}
          here={here}
          mailConfigured={Boolean(getConfig().mail)}
          resent={verification === 'sent' || verification === 'wait' ? verification : undefined}
        />
      )}
      {user && user.email.toLowerCase() === invitation.email.toLowerCase() && user.emailVerified && (
        <AcceptInvitationForm token={token} accept={acceptInvitationAction} />
      )}
    </CenteredCard>
  );
}

/**
 * The invited address is not confirmed yet. Only a server with mail set up says a link was sent (as
 * the verification banner, components/notices/verify-banner.tsx): without SMTP the link went to the
 * server's log, so the page says what whoever runs the server can do. "Send a new link" keeps the
 * person here, and the new link leads back here too.
 */
function ConfirmAddressFirst({
  email,
  here,
  mailConfigured,
  resent,
}: {
  email: string;
  here: string;
  mailConfigured: boolean;
  /** What the last "Send a new link" did: sent one, or refused (three links per 15 minutes). */
  resent: 'sent' | 'wait' | undefined;
}) {
  if (!mailConfigured) {
    return (
      <p className="alert alert-info" data-testid="mail-not-set-up">
        Confirm your e-mail address first. This server cannot send e-mail yet (no SMTP server is set up), so
        no confirmation link was e-mailed to <strong>{email}</strong>: it was written to the server’s log
        instead. Ask whoever runs this server for that link, or to turn e-mail on (see{' '}
        <a href="/setup#setup-mail">how to turn on e-mail</a>), then follow it and come back to this page.
      </p>
    );
  }
  return (
    <div className="stack">
      <p className="alert alert-info" role={resent ? 'status' : undefined}>
        {resent === 'sent' ? (
          <>
            We sent a new link to <strong>{email}</strong>: follow it, then come back to this page.
          </>
        ) : (
          <>
            Confirm your e-mail address first: follow the link we sent to <strong>{email}</strong>, then come
            back to this page.
            {resent === 'wait' &&
              ' Several links went out in the last minutes: use the newest, or ask again later.'}
          </>
        )}
      </p>
      <form action={resendVerificationAction}>
        <input type="hidden" name="next" value={here} />
        <button type="submit" className="btn btn-sm">
          Send a new link
        </button>
      </form>
    </div>
  );
}
