import type { Metadata } from 'next';
import Link from 'next/link';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { returnPath } from '../../../server/auth/return-path.ts';
import { getConfig } from '../../../server/context.ts';

export const metadata: Metadata = { title: 'Confirm your e-mail address', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

/**
 * The verification link lands here; the address is confirmed only when the button is pressed
 * (a POST), so a mail scanner that fetches links does not use it up.
 */
export default async function VerifyEmailPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token, status, next } = await searchParams;
  // Back to where the person was going (an invitation they are accepting), else the composer.
  const onward = returnPath(typeof next === 'string' ? next : undefined, getConfig().appUrl);
  if (status === 'verified') {
    return (
      <CenteredCard>
        <header>
          <h1>Your e-mail address is confirmed</h1>
          <p className="muted">
            Thank you. You can now link GitHub or Google under Settings → Sign-in methods.
          </p>
        </header>
        <Link href={onward ?? '/compose'} className="btn btn-primary btn-block">
          {onward?.startsWith('/invite/') ? 'Continue to the invitation' : 'Continue'}
        </Link>
      </CenteredCard>
    );
  }
  if (status === 'invalid' || typeof token !== 'string') {
    return (
      <CenteredCard>
        <header>
          <h1>This link no longer works</h1>
          <p className="muted">
            Verification links work once and expire. Sign in and use “Send a new link” in the banner.
          </p>
        </header>
        <Link href="/signin" className="btn btn-primary btn-block">
          Sign in
        </Link>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard>
      <header>
        <h1>Confirm your e-mail address</h1>
        <p className="muted">Confirm that this address belongs to your Postwave account.</p>
      </header>
      <form method="post" action="/api/auth/verify-email">
        <input type="hidden" name="token" value={token} />
        {onward && <input type="hidden" name="next" value={onward} />}
        <button type="submit" className="btn btn-primary btn-block">
          Confirm my e-mail address
        </button>
      </form>
    </CenteredCard>
  );
}
