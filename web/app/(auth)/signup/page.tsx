import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignUpForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { platformNames } from '../../../components/lib/platforms.ts';
import { returnPath } from '../../../server/auth/return-path.ts';
import { getConfig } from '../../../server/context.ts';
import { signUpAction } from '../../../server/ui/actions.ts';
import { currentUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Create your account' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignUpPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = returnPath([params.next].flat()[0], getConfig().appUrl);
  const email = [params.email].flat()[0];
  if (await currentUser()) redirect(next ?? '/compose');
  return (
    <CenteredCard>
      <header>
        <h1>Create your account</h1>
        <p className="muted">Write once, publish to {platformNames()}.</p>
      </header>
      <SignUpForm signUp={signUpAction} {...(next ? { next } : {})} {...(email ? { email } : {})} />
    </CenteredCard>
  );
}
