import { createHmac } from 'node:crypto';
import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { safeEqual } from '#server/security/tokens.ts';
import * as repo from './repository.ts';

export interface SignInMethods {
  password: boolean;
  identities: { provider: string; createdAt: string }[];
}

/** How the user can sign in: a password, and the provider identities linked to them. */
export async function listSignInMethods(ctx: AppContext, userId: string): Promise<SignInMethods> {
  const user = await repo.findUser(ctx, userId);
  const identities = await repo.identitiesOf(ctx, userId);
  return {
    password: Boolean(user?.passwordHash),
    identities: identities.map((i) => ({ provider: i.provider, createdAt: i.createdAt.toISOString() })),
  };
}

/** Unlinks a provider; refused when it is the user's last way to sign in. */
export async function unlinkProvider(ctx: AppContext, userId: string, provider: string): Promise<void> {
  const outcome = await repo.deleteIdentityUnlessLast(ctx, userId, provider);
  if (outcome === 'not_linked')
    throw new ProblemError(problem('not_found', 'That sign-in method is not linked'));
  if (outcome === 'last') {
    throw new ProblemError(
      problem('invalid_status', 'This is your only way to sign in: link another one or set a password first'),
    );
  }
}

/** The cookie that carries a signed-in user's request to link a provider into the OAuth callback. */
export const linkIntentCookie = 'postwave.link-intent';
export const linkIntentMaxAgeSeconds = 10 * 60;

function sign(secret: string, payload: string): string {
  return createHmac('sha256', `${secret}:link-intent`).update(payload).digest('base64url');
}

/** `userId.provider.expiry.mac`: only our server can make one, and it names who asked to link what. */
export function linkIntentValue(secret: string, userId: string, provider: string, now = Date.now()): string {
  const payload = `${userId}.${provider}.${now + linkIntentMaxAgeSeconds * 1000}`;
  return `${payload}.${sign(secret, payload)}`;
}

export function readLinkIntent(
  secret: string,
  value: string | undefined,
  now = Date.now(),
): { userId: string; provider: string } | undefined {
  if (!value || value.length > 300) return undefined;
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  const [userId, provider, expiry, mac] = parts as [string, string, string, string];
  if (!safeEqual(mac, sign(secret, `${userId}.${provider}.${expiry}`))) return undefined;
  if (!(Number(expiry) > now)) return undefined;
  return { userId, provider };
}
