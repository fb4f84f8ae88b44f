import type { RouteSpec } from '@postwave/shared/openapi/index';
import type { ApiAuth } from './common.ts';

/** The server's own description (docs and operations routes come from shared/openapi). */
export const serviceRoutes = {
  getOpenApi: {
    method: 'get',
    path: '/openapi.json',
    auth: 'public',
    operationId: 'getOpenApi',
    summary: 'This OpenAPI description',
    description: 'No authentication. An interactive rendering is served at `/docs`.',
    tags: ['Service'],
    responses: {
      200: { description: 'OpenAPI 3.1 document.', content: { 'application/json': { type: 'object' } } },
    },
  },
} satisfies Record<string, RouteSpec<ApiAuth>>;
