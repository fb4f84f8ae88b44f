import { ProblemError, problem } from '@postwave/shared';
import type { z } from 'zod';
import { sessionIsCurrent } from '#server/auth/session.ts';
import type { AppContext } from '#server/context.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '#server/security/passwords.ts';
import * as repo from './repository.ts';
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
    const row = await repo.insertUser(ctx, {
      id: crypto.randomUUID(),
      email,
      name: input.name?.trim() || null,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
    });
    return toPublicUser(row);
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
  const row = await repo.findUserByEmail(ctx, normalizeEmail(email));
  if (!row?.passwordHash) {
    await verifyPassword(password, await dummyPasswordHash());
    return undefined;
  }
  return (await verifyPassword(password, row.passwordHash)) ? toPublicUser(row) : undefined;
}

export interface ProviderIdentity {
  provider: string;
  providerAccountId: string;
  email: string | undefined;
  /** The provider says it verified the address (Google `email_verified`, a verified GitHub address). */
  emailVerified: boolean;
  name?: string | null;
}

/** Why a provider sign-in was refused; each has its own message on the sign-in page. */
export type IdentityRefusal =
  /** A user with that e-mail exists and has not linked this identity: it never links by e-mail alone. */
  | 'email_in_use'
  /** No e-mail the provider verified, so no new account can be made from it. */
  | 'email_unverified'
  /** Linking: the identity already belongs to another user. */
  | 'linked_elsewhere'
  /** Linking: the signed-in user has not verified their own e-mail address yet. */
  | 'verify_email_first';

export type IdentityOutcome = { user: PublicUser } | { refused: IdentityRefusal };

/** The user an identity is linked to, if any. */
export async function linkedUser(
  ctx: AppContext,
  provider: string,
  providerAccountId: string,
): Promise<PublicUser | undefined> {
  const linked = await repo.findLinkedUser(ctx, provider, providerAccountId);
  return linked ? toPublicUser(linked) : undefined;
}

/**
 * The user behind an OAuth sign-in (GitHub, Google). An identity signs in to the user it is
 * linked to. An unlinked one creates a new user, unless the e-mail already belongs to a user:
 * then it is refused, never attached by e-mail (the existing user may be someone else's
 * unverified sign-up, or the provider account may not be theirs). With `linkTo` (the signed-in
 * user who asked to link this provider in Settings) the identity is linked to that user instead.
 */
export async function signInWithIdentity(
  ctx: AppContext,
  identity: ProviderIdentity,
  linkTo?: string,
): Promise<IdentityOutcome> {
  const linked = await linkedUser(ctx, identity.provider, identity.providerAccountId);
  if (linked) {
    if (linkTo && linked.id !== linkTo) return { refused: 'linked_elsewhere' };
    return { user: linked };
  }
  const now = new Date();
  if (linkTo) {
    const owner = await repo.findUser(ctx, linkTo);
    if (!owner) return { refused: 'linked_elsewhere' };
    if (!owner.emailVerifiedAt) return { refused: 'verify_email_first' };
    try {
      await repo.insertIdentity(ctx, {
        provider: identity.provider,
        providerAccountId: identity.providerAccountId,
        userId: owner.id,
        createdAt: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return { refused: 'linked_elsewhere' };
      throw error;
    }
    return { user: toPublicUser(owner) };
  }
  if (!identity.email || !identity.emailVerified) return { refused: 'email_unverified' };
  const email = normalizeEmail(identity.email);
  try {
    const user = await repo.insertUserWithIdentity(
      ctx,
      {
        id: crypto.randomUUID(),
        email,
        name: identity.name ?? null,
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      },
      { provider: identity.provider, providerAccountId: identity.providerAccountId, createdAt: now },
    );
    return { user: toPublicUser(user) };
  } catch (error) {
    // The e-mail is taken (or a concurrent sign-in with the same identity just created it).
    if (!isUniqueViolation(error)) throw error;
    const again = await linkedUser(ctx, identity.provider, identity.providerAccountId);
    return again ? { user: again } : { refused: 'email_in_use' };
  }
}

/** True once someone has signed up on this server (the sign-in page's first-visit greeting). */
export async function hasAnyUser(ctx: AppContext): Promise<boolean> {
  return repo.anyUserExists(ctx);
}

export async function getUser(ctx: AppContext, userId: string): Promise<PublicUser | undefined> {
  const row = await repo.findUser(ctx, userId);
  return row ? toPublicUser(row) : undefined;
}

/**
 * The user behind a browser session, if the user still exists and has not reset the password
 * since the session began (`authTime`). Every session check (API caller, pages, CLI login,
 * provider linking) asks here.
 */
export async function sessionUser(
  ctx: AppContext,
  userId: string,
  authTime: unknown,
): Promise<repo.UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const row = await repo.findUser(ctx, userId);
  return row && sessionIsCurrent(authTime, row.sessionsValidAfter) ? row : undefined;
}

/** Saves name and/or time zone (Settings, sign-up). */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  values: { name?: string | null; timezone?: string },
): Promise<void> {
  await repo.updateProfile(ctx, userId, values);
}

function toPublicUser(row: repo.UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    timezone: row.timezone,
    createdAt: row.createdAt.toISOString(),
    emailVerifiedAt: row.emailVerifiedAt?.toISOString() ?? null,
  };
}
