import { startYouTubeConnect } from '#server/accounts/oauth-connect.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/** Redirects the signed-in browser to the platform's consent screen. */
export const GET = route(
  accountsRoutes.startOAuthConnect,
  async ({ request, ctx, caller, params: { platform } }) => {
    if (platform !== 'youtube') throw notFound('OAuth platform');
    const location = await startYouTubeConnect(ctx, caller.userId);
    return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
  },
);
