import { docsPageRoutes, operationsRoutes } from '@postwave/shared/openapi/index';
import { type ApiAuth, defineApiRoutes } from '#server/http/route.ts';
import { json } from './common.ts';

export const apiDocsRoutes = defineApiRoutes({
  ...operationsRoutes<ApiAuth>('public', {
    checks:
      'the database answers (`database`), every migration of this build is applied (`migrations`), media ' +
      'storage answers (`storage`), and it is not shutting down (`shutdown`)',
    metrics:
      '`postwave_publish_total{platform,outcome}` (`posted`, `failed`, `unknown`), ' +
      '`postwave_publish_duration_seconds{platform}` (histogram), `postwave_dispatch_lateness_seconds` ' +
      '(histogram: scheduled time to the start of its first publish) and `postwave_scheduled_due` (gauge: due ' +
      'posts no dispatcher holds)',
    tags: ['Service'],
  }),
  getOpenApi: {
    method: 'get',
    path: '/openapi.json',
    auth: 'public',
    operationId: 'getOpenApi',
    summary: 'This OpenAPI description',
    description: 'An interactive rendering is served at `/docs`.',
    tags: ['Service'],
    responses: { 200: { description: 'OpenAPI 3.1 document.', content: { [json]: { type: 'object' } } } },
  },
  ...docsPageRoutes<ApiAuth>('public'),
  ...unknownApiPathRoutes(),
});

/**
 * Any `/api/v1` path no route serves answers 404 `not_found` as a problem body (contract B: every
 * error is problem+json), not Next's HTML page. Not operations, so not in the OpenAPI document.
 */
function unknownApiPathRoutes() {
  const entry = <M extends 'get' | 'post' | 'put' | 'patch' | 'delete'>(method: M) => ({
    method,
    path: '/api/v1/{path}',
    auth: 'public' as const,
    undocumented: true,
    operationId: `unknownApiPath${method[0]!.toUpperCase()}${method.slice(1)}`,
    summary: 'No such API path',
    responses: { 404: { description: 'No such API path.' } },
  });
  return {
    unknownApiPathGet: entry('get'),
    unknownApiPathPost: entry('post'),
    unknownApiPathPut: entry('put'),
    unknownApiPathPatch: entry('patch'),
    unknownApiPathDelete: entry('delete'),
  };
}
