import { ConnectError, finishYouTubeConnect } from '#server/accounts/oauth-connect.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/** Google sends the browser back here; the outcome is shown on the accounts page. */
export const GET = route(
  accountsRoutes.finishOAuthConnect,
  async ({ request, ctx, caller, params: { platform } }) => {
    if (platform !== 'youtube') throw notFound('OAuth platform');
    const back = new URL('/accounts', ctx.config.appUrl);
    try {
      const account = await finishYouTubeConnect(ctx, caller.userId, new URL(request.url).searchParams);
      back.searchParams.set('connected', account.id);
    } catch (error) {
      if (!(error instanceof ConnectError)) throw error;
      back.searchParams.set('error', error.code);
      back.searchParams.set('message', error.message);
    }
    return new Response(null, {
      status: 302,
      headers: { location: back.toString(), 'cache-control': 'no-store' },
    });
  },
);
