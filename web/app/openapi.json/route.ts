import { json } from '../../server/http/respond.ts';
import { route } from '../../server/http/route.ts';
import { schedulerOpenApi } from '../../server/openapi.ts';

export const runtime = 'nodejs';

export const GET = route(async (_request, ctx) => json(schedulerOpenApi(ctx.config.appUrl, ctx.publishers)));
