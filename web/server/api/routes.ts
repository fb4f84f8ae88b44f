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
  ...unknownPathRoutes('/api/v1/{path}', 'unknownApiPath'),
  ...unknownPathRoutes('/api/{path}', 'unknownApiRootPath'),
  ...unknownPathRoutes('/mcp/{path}', 'unknownMcpPath'),
});

/**
 * Any path under `/api/v1`, `/api` or `/mcp` that no route serves answers 404 `not_found` as a
 * problem body (contract B: every error is problem+json), not Next's HTML page. Not operations, so
 * not in the OpenAPI document. (`/api/auth/*` is next-auth's, which answers its own errors.)
 */
function unknownPathRoutes<S extends string>(path: string, stem: S) {
  const entry = <M extends 'get' | 'post' | 'put' | 'patch' | 'delete'>(method: M) => ({
    method,
    path,
    auth: 'public' as const,
    undocumented: true,
    operationId: `${stem}${method[0]!.toUpperCase()}${method.slice(1)}`,
    summary: 'No such API path',
    responses: { 404: { description: 'No such API path.' } },
  });
  return {
    [`${stem}Get`]: entry('get'),
    [`${stem}Post`]: entry('post'),
    [`${stem}Put`]: entry('put'),
    [`${stem}Patch`]: entry('patch'),
    [`${stem}Delete`]: entry('delete'),
  } as Record<`${S}${'Get' | 'Post' | 'Put' | 'Patch' | 'Delete'}`, ReturnType<typeof entry>>;
}
