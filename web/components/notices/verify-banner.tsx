import { Dismissible } from './dismissible.tsx';

/**
 * Until the address is confirmed. Only a server with mail set up says a link was sent: without
 * SMTP the link is written to the server's log, and saying "we sent a link" would send the person
 * looking for a message that never comes (issue 30, docs/scheduler.md#e-mail).
 */
export function VerifyBanner({
  email,
  mailConfigured,
  resend,
}: {
  email: string;
  mailConfigured: boolean;
  /** The server action behind "Send a new link" (server/ui/actions.ts). */
  resend: () => Promise<void>;
}) {
  if (mailConfigured) {
    return (
      <Dismissible id="verify-email" label="E-mail verification" className="alert alert-info verify-banner">
        <p>
          Confirm your e-mail address: we sent a link to <strong>{email}</strong>. Until then you cannot link
          GitHub or Google sign-in.
        </p>
        <form action={resend}>
          <button type="submit" className="btn btn-sm">
            Send a new link
          </button>
        </form>
      </Dismissible>
    );
  }
  return (
    <Dismissible id="verify-email" label="E-mail verification" className="alert alert-info verify-banner">
      <p data-testid="mail-not-set-up">
        This server cannot send e-mail yet (no SMTP server is set up), so no confirmation link was e-mailed to{' '}
        <strong>{email}</strong>. Everything works without it, except linking GitHub or Google sign-in and
        e-mailed password resets: those links are written to the server’s log instead. If you run this server,
        see <a href="/setup#setup-mail">how to turn on e-mail</a>.
      </p>
    </Dismissible>
  );
}
