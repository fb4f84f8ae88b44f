import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignUpForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { platformNames } from '../../../components/lib/platforms.ts';
import { signUpAction } from '../../../server/ui/actions.ts';
import { currentUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Create your account' };

export default async function SignUpPage() {
  if (await currentUser()) redirect('/compose');
  return (
    <CenteredCard>
      <header>
        <h1>Create your account</h1>
        <p className="muted">Write once, publish to {platformNames()}.</p>
      </header>
      <SignUpForm signUp={signUpAction} />
    </CenteredCard>
  );
}
