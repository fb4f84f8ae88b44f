import { cliAuthRoutes } from '#server/cli-auth/routes.ts';
import { whoAmI } from '#server/cli-auth/service.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(cliAuthRoutes.whoAmI, async ({ ctx, caller }) => json(await whoAmI(ctx, caller)));
