import { ProblemError, problem } from '@postwave/shared';
import { cookies } from 'next/headers';
import { signIn } from '#server/auth/next-auth.ts';
import { secureCookiesFor } from '#server/auth/session.ts';
import { wantsHtml } from '#server/http/browser.ts';
import { notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { configuredProviders, unconfiguredProviders } from '#server/users/providers.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { getUser } from '#server/users/service.ts';
import {
  linkIntentCookie,
  linkIntentMaxAgeSeconds,
  linkIntentValue,
  unlinkProvider,
} from '#server/users/sign-in-methods.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Starts linking a provider to the signed-in user (a same-origin form post from Settings): a
 * short-lived signed cookie records who asked to link what, and the browser goes to the provider.
 * The OAuth callback links the identity only for that user with a current session. Only users
 * who verified their e-mail address may link (see docs/security-scheduler.md).
 */
export const POST = route(
  usersRoutes.linkSignInMethod,
  async ({ request, ctx, caller, params: { provider } }) => {
    if (!configuredProviders(ctx.config).some((p) => p.id === provider)) {
      // The settings form of a known provider the server lacks: a page saying what to set up.
      if (wantsHtml(request) && unconfiguredProviders(ctx.config).some((p) => p.id === provider)) {
        return new Response(null, {
          status: 303,
          headers: { location: `${ctx.config.appUrl}/setup?missing=${provider}#${provider}` },
        });
      }
      throw notFound('sign-in provider');
    }
    const user = await getUser(ctx, caller.userId);
    if (!user?.emailVerifiedAt) {
      throw new ProblemError(
        problem('forbidden', 'Confirm your e-mail address first: follow the link we sent when you signed up'),
      );
    }
    (await cookies()).set(linkIntentCookie, linkIntentValue(ctx.config.authSecret, caller.userId, provider), {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookiesFor(ctx.config),
      path: '/api/auth/callback',
      maxAge: linkIntentMaxAgeSeconds,
    });
    const location = (await signIn(provider, {
      redirect: false,
      redirectTo: `/settings?linked=${encodeURIComponent(provider)}#sign-in-methods`,
    })) as string;
    return new Response(null, { status: 303, headers: { location } });
  },
);

/** Unlinks a provider; 409 when it is the last way to sign in. */
export const DELETE = route(usersRoutes.unlinkSignInMethod, async ({ ctx, caller, params: { provider } }) => {
  await unlinkProvider(ctx, caller.userId, provider);
  return new Response(null, { status: 204 });
});
