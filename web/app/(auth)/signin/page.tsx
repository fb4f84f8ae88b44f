import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { returnPath } from '../../../server/auth/return-path.ts';
import { getConfig, getContext } from '../../../server/context.ts';
import { providerSignInAction, signInAction } from '../../../server/ui/actions.ts';
import { currentUser } from '../../../server/ui/session.ts';
import { hasAnyUser } from '../../../server/users/get-user.ts';
import { configuredProviders, unconfiguredProviders } from '../../../server/users/providers.ts';

/**
 * Providers this server could offer but has no credentials for: named, with a link to /setup, where
 * the operator reads the variables. The sign-in card is for people signing in, not for operators
 * (issue 30), so it names no variable.
 */
function OtherSignInMethods({ missing }: { missing: { id: string; name: string }[] }) {
  if (missing.length === 0) return null;
  return (
    <p className="small muted setup-note" data-testid="other-sign-in-methods">
      {missing.map((p) => p.name).join(' and ')} sign-in {missing.length === 1 ? 'is' : 'are'} not set up on
      this server: <a href="/setup#setup-sign-in">how to turn {missing.length === 1 ? 'it' : 'them'} on</a>.
    </p>
  );
}

export const metadata: Metadata = { title: 'Sign in' };

/** Why a GitHub/Google sign-in was refused (server/auth/next-auth.ts). */
const providerErrors: Record<string, string> = {
  email_in_use:
    'An account with this e-mail address already exists. Sign in with your password, then link this provider under Settings → Sign-in methods.',
  email_unverified:
    'The provider did not confirm an e-mail address for this account, so we cannot sign you in with it.',
  linked_elsewhere: 'That account is linked to another Postwave user.',
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const candidate = [params.next].flat()[0] ?? [params.callbackUrl].flat()[0];
  const next = returnPath(candidate, getConfig().appUrl);
  if (await currentUser()) redirect(next ?? '/compose');
  // A first visit is a first visit: before anyone has an account there is nobody to welcome back.
  const firstVisit = !(await hasAnyUser(await getContext()));
  return (
    <CenteredCard>
      <header>
        <h1>{firstVisit ? 'Welcome to Postwave' : 'Sign in'}</h1>
        <p className="muted">
          {firstVisit
            ? 'Nobody has an account on this server yet. Create the first one to connect your social accounts and schedule posts.'
            : next?.startsWith('/cli/') || next?.startsWith('/oauth/')
              ? 'Sign in to continue connecting your app to Postwave.'
              : 'Sign in to schedule and publish your posts.'}
        </p>
      </header>
      {firstVisit && (
        <Link href="/signup" className="btn btn-primary btn-block" data-testid="first-account">
          Create the first account
        </Link>
      )}
      {typeof params.error === 'string' && providerErrors[params.error] && (
        <p className="alert alert-error" role="alert">
          {providerErrors[params.error]}
        </p>
      )}
      <SignInForm next={next} signIn={signInAction} />
      {configuredProviders(getConfig()).map((provider) => (
        <form key={provider.id} action={providerSignInAction}>
          <input type="hidden" name="provider" value={provider.id} />
          <input type="hidden" name="next" value={next ?? '/compose'} />
          <button type="submit" className="btn btn-block">
            Continue with {provider.name}
          </button>
        </form>
      ))}
      <OtherSignInMethods missing={unconfiguredProviders(getConfig())} />
    </CenteredCard>
  );
}
