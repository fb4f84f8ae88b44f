import { ConnectError, startConnect } from '#server/accounts/oauth-connect.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { isNotConfigured, setupPageRedirect, wantsHtml } from '#server/http/browser.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/**
 * Redirects the signed-in browser to the platform's consent screen. `?accountId=` reconnects that
 * account: the flow then updates it and accepts no other platform account.
 */
export const GET = route(
  accountsRoutes.startOAuthConnect,
  async ({ request, ctx, caller, params: { platform } }) => {
    const accountId = new URL(request.url).searchParams.get('accountId');
    try {
      const location = await startConnect(ctx, caller.workspaceId, platform, { accountId });
      return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
    } catch (error) {
      // The platform failed before consent (a request token): the accounts page says so, as a failed callback does.
      if (error instanceof ConnectError) {
        return new Response(null, {
          status: 302,
          headers: { location: error.redirect(ctx.config.appUrl).toString(), 'cache-control': 'no-store' },
        });
      }
      // A person who followed a link gets a page saying what to set up, not a JSON document.
      if (isNotConfigured(error) && wantsHtml(request)) return setupPageRedirect(ctx.config, platform);
      throw error;
    }
  },
);
