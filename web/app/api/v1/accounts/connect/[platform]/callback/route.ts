import { ConnectError, finishConnect } from '#server/accounts/oauth-connect.ts';
import { accountsRoutes } from '#server/accounts/routes.ts';
import { actorOf } from '#server/audit/actor.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/**
 * The platform sends the browser back here. One account: saved, and the accounts page says so.
 * Several (pages, organizations): the picker page. A failure: the accounts page explains it.
 */
export const GET = route(
  accountsRoutes.finishOAuthConnect,
  async ({ request, ctx, caller, params: { platform } }) => {
    let back = new URL('/accounts', ctx.config.appUrl);
    try {
      const outcome = await finishConnect(
        ctx,
        caller.workspaceId,
        platform,
        new URL(request.url).searchParams,
        actorOf(caller),
      );
      if (outcome.kind === 'pick') {
        back.pathname = '/accounts/pick';
        back.searchParams.set('pending', outcome.token);
      } else {
        for (const account of outcome.accounts) back.searchParams.append('connected', account.id);
      }
    } catch (error) {
      if (!(error instanceof ConnectError)) throw error;
      back = error.redirect(ctx.config.appUrl);
    }
    return new Response(null, {
      status: 302,
      headers: { location: back.toString(), 'cache-control': 'no-store' },
    });
  },
);
