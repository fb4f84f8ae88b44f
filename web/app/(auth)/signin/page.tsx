import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { returnPath } from '../../../server/auth/return-path.ts';
import { getConfig } from '../../../server/context.ts';
import { providerSignInAction, signInAction } from '../../../server/ui/actions.ts';
import { currentUser } from '../../../server/ui/session.ts';
import { configuredProviders, unconfiguredProviders } from '../../../server/users/providers.ts';

/** Providers this server could offer but has no credentials for: named, with how to turn them on. */
function OtherSignInMethods({ missing }: { missing: { id: string; name: string; requiredEnv: string[] }[] }) {
  if (missing.length === 0) return null;
  return (
    <p className="small muted setup-note" data-testid="other-sign-in-methods">
      {missing.map((p) => p.name).join(' and ')} sign-in {missing.length === 1 ? 'is' : 'are'} not set up on
      this server. The operator turns {missing.length === 1 ? 'it' : 'them'} on with{' '}
      {missing.flatMap((p) => p.requiredEnv).join(', ')}: see <a href="/setup#setup-sign-in">server setup</a>.
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
  return (
    <CenteredCard>
      <header>
        <h1>Welcome back</h1>
        <p className="muted">
          {next?.startsWith('/cli/') || next?.startsWith('/oauth/')
            ? 'Sign in to continue connecting your app to Postwave.'
            : 'Sign in to schedule and publish your posts.'}
        </p>
      </header>
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
