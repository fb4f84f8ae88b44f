import type { Metadata } from 'next';
import { ForgotPasswordForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { getContext } from '../../../server/context.ts';
import { resetLinkLifetime } from '../../../server/users/password-reset.ts';

export const metadata: Metadata = { title: 'Reset your password' };

export const dynamic = 'force-dynamic';

export default async function ForgotPasswordPage() {
  const ctx = await getContext();
  const lifetime = resetLinkLifetime(ctx);
  return (
    <CenteredCard>
      <header>
        <h1>Reset your password</h1>
        <p className="muted">
          {ctx.config.mail
            ? 'Enter the email you signed up with and we will send you a link to choose a new one.'
            : 'This server cannot send e-mail yet, so the link to choose a new password goes to the server’s log: after you ask for it here, whoever runs this server can pass it on.'}
        </p>
      </header>
      <ForgotPasswordForm lifetime={lifetime} mailConfigured={Boolean(ctx.config.mail)} />
    </CenteredCard>
  );
}
