import { startYouTubeConnect } from '#server/accounts/oauth-connect.ts';
import { requireCaller } from '#server/auth/caller.ts';
import { notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/** Redirects the signed-in browser to the platform's consent screen. */
export const GET = route<{ platform: string }>(async (request, ctx, { platform }) => {
  const caller = await requireCaller(request, ctx);
  if (platform !== 'youtube') throw notFound('OAuth platform');
  const location = await startYouTubeConnect(ctx, caller.userId);
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
});
