import type { Metadata } from 'next';
import { ForgotPasswordForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { getContext } from '../../../server/context.ts';
import { resetLinkLifetime } from '../../../server/users/password-reset.ts';

export const metadata: Metadata = { title: 'Reset your password' };

export const dynamic = 'force-dynamic';

export default async function ForgotPasswordPage() {
  const lifetime = resetLinkLifetime(await getContext());
  return (
    <CenteredCard>
      <header>
        <h1>Reset your password</h1>
        <p className="muted">
          Enter the email you signed up with and we will send you a link to choose a new one.
        </p>
      </header>
      <ForgotPasswordForm lifetime={lifetime} />
    </CenteredCard>
  );
}
