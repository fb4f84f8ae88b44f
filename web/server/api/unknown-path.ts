import { problem } from '@postwave/shared';
import { problemResponse } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { apiDocsRoutes } from './routes.ts';

/** Next serves these only when no other route matches: an unknown API path is a 404 problem body. */
const notFound = async () => problemResponse(problem('not_found', 'No such API path'));

type Stem = 'unknownApiPath' | 'unknownApiRootPath' | 'unknownMcpPath';

/** The handlers of a catch-all route file (`[...path]`) whose registry entries are named `stem`. */
export function unknownPathHandlers(stem: Stem) {
  return {
    GET: route(apiDocsRoutes[`${stem}Get`], notFound),
    POST: route(apiDocsRoutes[`${stem}Post`], notFound),
    PUT: route(apiDocsRoutes[`${stem}Put`], notFound),
    PATCH: route(apiDocsRoutes[`${stem}Patch`], notFound),
    DELETE: route(apiDocsRoutes[`${stem}Delete`], notFound),
  };
}
