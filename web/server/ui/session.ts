import { eq } from 'drizzle-orm';
import { redirect } from 'next/navigation';
import { auth } from '#server/auth/next-auth.ts';
import { sessionIsCurrent } from '#server/auth/session.ts';
import { getContext } from '#server/context.ts';
import { users } from '#server/db/schema.ts';

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
  if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const ctx = await getContext();
  const [row] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      timezone: users.timezone,
      validAfter: users.sessionsValidAfter,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(eq(users.id, id));
  if (!row || !sessionIsCurrent((session as { authTime?: unknown }).authTime, row.validAfter))
    return undefined;
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
