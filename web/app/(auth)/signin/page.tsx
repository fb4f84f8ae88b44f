import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '../../../components/auth/auth-forms.tsx';
import { CenteredCard } from '../../../components/consent-card.tsx';
import { currentUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await currentUser()) redirect(next?.startsWith('/') && !next.startsWith('//') ? next : '/compose');
  return (
    <CenteredCard>
      <header>
        <h1>Welcome back</h1>
        <p className="muted">Sign in to schedule and publish your posts.</p>
      </header>
      <SignInForm next={next} />
    </CenteredCard>
  );
}
