import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { configuredProviders } from '#server/users/providers.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { listSignInMethods } from '#server/users/sign-in-methods.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** How the signed-in user can sign in, and which providers could be linked. */
export const GET = route(usersRoutes.listSignInMethods, async ({ ctx, caller }) => {
  return json({
    ...(await listSignInMethods(ctx, caller.userId)),
    providers: configuredProviders(ctx.config),
  });
});
