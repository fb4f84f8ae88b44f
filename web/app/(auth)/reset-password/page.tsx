import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetPasswordForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { getContext } from '../../../server/context.ts';
import { resetLinkLifetime, resetTokenIsUsable } from '../../../server/users/password-reset.ts';

export const metadata: Metadata = { title: 'Choose a new password', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const ctx = await getContext();
  const usable = typeof token === 'string' && (await resetTokenIsUsable(ctx, token));
  if (!usable) {
    return (
      <CenteredCard>
        <header>
          <h1>This link no longer works</h1>
          <p className="muted">
            Password reset links work once and only for {resetLinkLifetime(ctx)}. Ask for a new one and use
            the newest e-mail.
          </p>
        </header>
        <Link href="/forgot-password" className="btn btn-primary btn-block">
          Send a new link
        </Link>
        <p className="auth-foot">
          <Link href="/signin">Back to sign in</Link>
        </p>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard>
      <header>
        <h1>Choose a new password</h1>
        <p className="muted">
          After this you will be signed out everywhere else, and every API and CLI token and every connected
          AI assistant (MCP) of your account stops working: you will create or connect them again.
        </p>
      </header>
      <ResetPasswordForm token={token} />
    </CenteredCard>
  );
}
