import { requireCaller } from '../../../../../../server/auth/caller.ts';
import { route } from '../../../../../../server/http/route.ts';
import { startConnect } from '../../../../../../server/services/oauth-connect.ts';

export const runtime = 'nodejs';

/**
 * Redirects the signed-in browser to the platform's consent screen. `?accountId=` reconnects that
 * account: the flow then updates it and accepts no other platform account.
 */
export const GET = route<{ platform: string }>(async (request, ctx, { platform }) => {
  const caller = await requireCaller(request, ctx);
  const accountId = new URL(request.url).searchParams.get('accountId');
  const location = await startConnect(ctx, caller.userId, platform, { accountId });
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
});
