import { ProblemError, problem } from '@postwave/shared';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { userIdentities, users } from '#server/db/schema.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '#server/security/passwords.ts';
import type { PublicUser, SignupRequest } from './schema.ts';

export const minPasswordLength = 10;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function signUp(ctx: AppContext, input: z.infer<typeof SignupRequest>): Promise<PublicUser> {
  const email = normalizeEmail(input.email);
  const errors = [];
  if (!emailPattern.test(email))
    errors.push({ path: 'email', code: 'invalid_email', message: 'Not a valid email address' });
  if (input.password.length < minPasswordLength) {
    errors.push({
      path: 'password',
      code: 'weak_password',
      message: `Use at least ${minPasswordLength} characters`,
    });
  }
  if (errors.length)
    throw new ProblemError(problem('validation_failed', 'The sign-up details are not valid', { errors }));
  const now = new Date();
  try {
    const [row] = await ctx.db
      .insert(users)
      .values({
        id: crypto.randomUUID(),
        email,
        name: input.name?.trim() || null,
        passwordHash: await hashPassword(input.password),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return toPublicUser(row!);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ProblemError(problem('email_taken', 'An account with this email already exists'));
    throw error;
  }
}

/** The user for an email and password, or undefined; takes the same time whether or not the email exists. */
export async function verifyCredentials(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<PublicUser | undefined> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (!row?.passwordHash) {
    await verifyPassword(password, await dummyPasswordHash());
    return undefined;
  }
  return (await verifyPassword(password, row.passwordHash)) ? toPublicUser(row) : undefined;
}

/**
 * The user behind an OAuth sign-in (GitHub, Google): the linked identity, else the user with the
 * same verified email, else a new user. Only providers that verify email addresses may link by email.
 */
export async function userForIdentity(
  ctx: AppContext,
  identity: {
    provider: string;
    providerAccountId: string;
    email: string | undefined;
    emailVerified: boolean;
    name?: string | null;
  },
): Promise<PublicUser | undefined> {
  const [linked] = await ctx.db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(
      and(
        eq(userIdentities.provider, identity.provider),
        eq(userIdentities.providerAccountId, identity.providerAccountId),
      ),
    );
  if (linked) return toPublicUser(linked.user);
  if (!identity.email || !identity.emailVerified) return undefined;
  const email = normalizeEmail(identity.email);
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    let [user] = await tx.select().from(users).where(eq(users.email, email));
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({
          id: crypto.randomUUID(),
          email,
          name: identity.name ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
    }
    await tx
      .insert(userIdentities)
      .values({
        provider: identity.provider,
        providerAccountId: identity.providerAccountId,
        userId: user!.id,
        createdAt: now,
      })
      .onConflictDoNothing();
    return toPublicUser(user!);
  });
}

export async function getUser(ctx: AppContext, userId: string): Promise<PublicUser | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  return row ? toPublicUser(row) : undefined;
}

function toPublicUser(row: typeof users.$inferSelect): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    timezone: row.timezone,
    createdAt: row.createdAt.toISOString(),
  };
}
