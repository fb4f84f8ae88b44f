import { requireCaller } from '../../../../server/auth/caller.ts';
import { json } from '../../../../server/http/respond.ts';
import { route } from '../../../../server/http/route.ts';
import { configuredProviders } from '../../../../server/services/providers.ts';
import { listSignInMethods } from '../../../../server/services/sign-in-methods.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** How the signed-in user can sign in, and which providers could be linked. */
export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  return json({
    ...(await listSignInMethods(ctx, caller.userId)),
    providers: configuredProviders(ctx.config),
  });
});
