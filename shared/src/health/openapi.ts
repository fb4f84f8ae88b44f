import { problemResponses } from '../openapi/document.ts';
import type { RouteSpec } from '../openapi/routes.ts';
import { LivenessResponse, ReadinessResponse } from './schemas.ts';

/**
 * `/health`, `/ready` and `/metrics`, declared once for both servers' route registries. The
 * document must declare a `metricsToken` bearer security scheme (`metricsSecurityScheme`).
 */
export function operationsRoutes<Auth extends string>(
  auth: Auth,
  options: { checks: string; metrics: string; tags?: string[] },
) {
  const tags = options.tags ? { tags: options.tags } : {};
  return {
    getHealth: {
      method: 'get',
      path: '/health',
      auth,
      operationId: 'getHealth',
      summary: 'Liveness',
      description:
        'No authentication. 200 `{ "status": "ok" }` while the process serves; it checks nothing else.',
      ...tags,
      security: [],
      responses: {
        200: { description: 'The process serves.', content: { 'application/json': LivenessResponse } },
      },
    },
    getReadiness: {
      method: 'get',
      path: '/ready',
      auth,
      operationId: 'getReadiness',
      summary: 'Readiness',
      description:
        `No authentication. 200 when the server can do its work: ${options.checks}. 503 names the failing ` +
        'checks in `failed` (and `checks.<name>: "failed"`); `shutdown` fails from the moment SIGTERM ' +
        'arrives. Point load balancers and container healthchecks here.',
      ...tags,
      security: [],
      responses: {
        200: { description: 'Ready.', content: { 'application/json': ReadinessResponse } },
        503: { description: 'A check failed.', content: { 'application/json': ReadinessResponse } },
      },
    },
    getMetrics: {
      method: 'get',
      path: '/metrics',
      auth,
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description:
        `Prometheus text format: ${options.metrics}, and the default process metrics (\`process_*\`, \`nodejs_*\`). ` +
        '`outcome` is `unknown` when the platform may have acted without our knowing (a request that timed ' +
        'out). Served only when `METRICS_TOKEN` is set (404 otherwise), and then only with ' +
        '`Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).',
      ...tags,
      security: [{ metricsToken: [] }],
      responses: {
        200: { description: 'The metrics.', content: { 'text/plain': { type: 'string' } } },
        ...problemResponses({
          unauthorized: 'missing or wrong token (with `WWW-Authenticate: Bearer`)',
          not_found: '`METRICS_TOKEN` is not set',
        }),
      },
    },
  } as const satisfies Record<string, RouteSpec<Auth>>;
}

export const metricsSecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  description: '`/metrics` only: must equal `METRICS_TOKEN`.',
} as const;

/** `/docs` (Scalar rendering `/openapi.json`) and the bundle it loads, for both registries. */
export function docsPageRoutes<Auth extends string>(auth: Auth) {
  return {
    getDocs: {
      method: 'get',
      path: '/docs',
      auth,
      operationId: 'getDocs',
      summary: 'Interactive API reference (Scalar) rendering /openapi.json',
      tags: ['Service'],
      responses: { 200: { description: 'HTML page.', content: { 'text/html': { type: 'string' } } } },
    },
    getDocsScript: {
      method: 'get',
      path: '/docs/scalar.js',
      auth,
      undocumented: true,
      operationId: 'getDocsScript',
      summary: 'The Scalar bundle the docs page loads',
      responses: { 200: { description: 'JavaScript.' } },
    },
  } as const satisfies Record<string, RouteSpec<Auth>>;
}
