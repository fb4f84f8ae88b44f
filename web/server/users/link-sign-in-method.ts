import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { getUser } from './get-user.ts';
import { configuredProviders, unconfiguredProviders } from './providers.ts';
import { linkIntentValue } from './sign-in-methods.ts';

export type LinkStart =
  /** A known provider this server has no credentials for: the setup page says what to set. */
  | { kind: 'not_set_up' }
  /** Go on to the provider with this signed link intent (the link-intent cookie's value). */
  | { kind: 'link'; intent: string };

/**
 * Starts linking `provider` to the signed-in user. Only users who verified their e-mail address
 * may link (see docs/security-scheduler.md); the intent records who asked to link what, so the
 * OAuth callback links the identity only for that user.
 */
export async function startLinkingSignInMethod(
  ctx: AppContext,
  userId: string,
  provider: string,
): Promise<LinkStart> {
  if (!configuredProviders(ctx.config).some((p) => p.id === provider)) {
    if (unconfiguredProviders(ctx.config).some((p) => p.id === provider)) return { kind: 'not_set_up' };
    throw notFound('sign-in provider');
  }
  const user = await getUser(ctx, userId);
  if (!user?.emailVerifiedAt) {
    throw new ProblemError(
      problem('forbidden', 'Confirm your e-mail address first: follow the link we sent when you signed up'),
    );
  }
  return { kind: 'link', intent: linkIntentValue(ctx.config.authSecret, userId, provider) };
}
