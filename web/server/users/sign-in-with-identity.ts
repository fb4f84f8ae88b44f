import type { AppContext } from '#server/context.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import * as repo from './repository.ts';
import type { PublicUser } from './schema.ts';
import { normalizeEmail } from './sign-up.ts';
import { toPublicUser } from './view.ts';

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
