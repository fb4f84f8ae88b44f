import type { PublisherRegistry } from '@postwave/shared';
import {
  addRoutes,
  jsonBodyLimitRule,
  methodNotAllowedRule,
  metricsSecurityScheme,
  OpenApiDocument,
  problemResponses,
  requestBodyRules,
} from '@postwave/shared/openapi/index';
import { requiredRole } from '#server/auth/permissions.ts';
import { maxJsonBytes } from '#server/http/body.ts';
import type { ApiAuth, ApiRoute } from '#server/http/route.ts';
import { apiRoutes } from './registry.ts';

/** Each auth name as an OpenAPI security requirement (`caller` is the document default). */
function securityFor(auth: ApiAuth): Record<string, string[]>[] | undefined {
  if (auth === 'caller') return undefined;
  if (auth === 'session') return [{ session: [] }];
  if (auth === 'dispatchSecret') return [{ dispatchSecret: [] }];
  if (auth === 'mcpToken') return [{ mcpOAuth: [] }];
  return [];
}

/** The Scheduler's OpenAPI 3.1 document: the route registry plus the platforms' schemas. */
export function schedulerOpenApi(appUrl: string, publishers: PublisherRegistry) {
  const doc = new OpenApiDocument({
    info: {
      title: 'Postwave Scheduler API',
      version: '1.0.0',
      description: [
        'Users, connected accounts, stored posts, drafts and scheduling around the Postwave publishing SDK.',
        '',
        '**Auth**: a browser session cookie (unsafe methods must be same-origin: `Sec-Fetch-Site: same-origin` or a matching `Origin`), or `Authorization: Bearer <token>` (personal or CLI token).',
        '**Errors** are RFC 9457 `application/problem+json` with a stable `code`.',
        requestBodyRules,
        jsonBodyLimitRule(maxJsonBytes),
        methodNotAllowedRule,
        '**Workspaces**: every resource belongs to a workspace; a session acts in its current one, a token in the one it is bound to. Another workspace’s resource is 404; a request beyond the caller’s role is 403 `forbidden` with `requiredRole`.',
        '**Decisions**: reconnecting an existing account answers 200 instead of 201; `GET /api/v1/posts?limit` above 200 is 400; a post being published at this moment answers 409 to changes.',
      ].join('\n'),
    },
    servers: [{ url: appUrl }],
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Personal or CLI token (`pw_…`).' },
      session: { type: 'apiKey', in: 'cookie', name: 'authjs.session-token' },
      dispatchSecret: { type: 'http', scheme: 'bearer', description: 'The `DISPATCH_SECRET`.' },
      metricsToken: metricsSecurityScheme,
      mcpOAuth: {
        type: 'oauth2',
        description: 'OAuth 2.1 with PKCE, from this server’s own authorization server.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${appUrl}/api/oauth/authorize`,
            tokenUrl: `${appUrl}/api/oauth/token`,
            scopes: {},
          },
        },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    maxJsonBodyBytes: maxJsonBytes,
  });
  for (const publisher of publishers.list()) {
    const name = publisher.id.charAt(0).toUpperCase() + publisher.id.slice(1);
    doc.component(`${name}Options`, publisher.optionsSchema);
    doc.component(`${name}Credentials`, publisher.credentialsSchema);
  }

  return addRoutes(doc, Object.values(apiRoutes).map(withRoleRefusal), securityFor).toJSON();
}

/**
 * A route that needs more than reading says so: 403 `forbidden` with `requiredRole` for a caller
 * whose role in the workspace falls short (docs/workspaces.md#roles).
 */
function withRoleRefusal(spec: ApiRoute): ApiRoute {
  const { permission } = spec;
  if (!permission || permission === 'self' || permission === 'read') return spec;
  const forbidden = `the caller’s role is below \`${requiredRole(permission)}\` in this workspace (\`requiredRole\` says so)`;
  const refusal = problemResponses({ forbidden })[403]!;
  const given = spec.responses[403];
  const response = given?.description.includes('requiredRole')
    ? given
    : { ...refusal, ...(given ? { description: `${given.description}\n\n${refusal.description}` } : {}) };
  return { ...spec, responses: { ...spec.responses, 403: response } };
}
