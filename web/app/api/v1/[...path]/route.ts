import { problem } from '@postwave/shared';
import { apiDocsRoutes } from '#server/api/routes.ts';
import { problemResponse } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

/** Next serves this only when no other route matches: an unknown API path is a 404 problem body. */
const notFound = async () => problemResponse(problem('not_found', 'No such API path'));

export const GET = route(apiDocsRoutes.unknownApiPathGet, notFound);
export const POST = route(apiDocsRoutes.unknownApiPathPost, notFound);
export const PUT = route(apiDocsRoutes.unknownApiPathPut, notFound);
export const PATCH = route(apiDocsRoutes.unknownApiPathPatch, notFound);
export const DELETE = route(apiDocsRoutes.unknownApiPathDelete, notFound);
