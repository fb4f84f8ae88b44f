import { redirect } from 'next/navigation';
import { auth } from '#server/auth/next-auth.ts';
import { getContext } from '#server/context.ts';
import { sessionUser } from '#server/users/service.ts';

export interface UiUser {
  id: string;
  email: string;
  name: string | null;
  timezone: string;
  /** False until a password sign-up followed its verification link (see docs/security-scheduler.md). */
  emailVerified: boolean;
}

/** The signed-in user for a server component, or undefined. */
export async function currentUser(): Promise<UiUser | undefined> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return undefined;
  const row = await sessionUser(await getContext(), id, (session as { authTime?: unknown }).authTime);
  if (!row) return undefined;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    timezone: row.timezone,
    emailVerified: row.emailVerifiedAt !== null,
  };
}

/** The signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<UiUser> {
  const user = await currentUser();
  if (!user) redirect('/signin');
  return user;
}
