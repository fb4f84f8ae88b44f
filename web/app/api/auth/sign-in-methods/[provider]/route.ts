import { cookies } from 'next/headers';
import { signIn } from '#server/auth/next-auth.ts';
import { secureCookiesFor } from '#server/auth/session.ts';
import { setupPageRedirect, wantsHtml } from '#server/http/browser.ts';
import { notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { startLinkingSignInMethod } from '#server/users/link-sign-in-method.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { linkIntentCookie, linkIntentMaxAgeSeconds, unlinkProvider } from '#server/users/sign-in-methods.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Starts linking a provider to the signed-in user (a same-origin form post from Settings): a
 * short-lived signed cookie records who asked to link what, and the browser goes to the provider.
 */
export const POST = route(
  usersRoutes.linkSignInMethod,
  async ({ request, ctx, caller, params: { provider } }) => {
    const start = await startLinkingSignInMethod(ctx, caller.userId, provider);
    if (start.kind === 'not_set_up') {
      // The settings form of a known provider the server lacks: a page saying what to set up.
      if (wantsHtml(request)) return setupPageRedirect(ctx.config, provider);
      throw notFound('sign-in provider');
    }
    (await cookies()).set(linkIntentCookie, start.intent, {
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
