import type { PublisherRegistry } from '@postwave/shared';
import { addRoutes, metricsSecurityScheme, OpenApiDocument } from '@postwave/shared/openapi/index';
import type { ApiAuth } from '#server/http/route.ts';
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
        '**Errors** are RFC 9457 `application/problem+json` with a stable `code`. Unknown JSON fields are ignored.',
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
  });
  for (const publisher of publishers.list()) {
    const name = publisher.id.charAt(0).toUpperCase() + publisher.id.slice(1);
    doc.component(`${name}Options`, publisher.optionsSchema);
    doc.component(`${name}Credentials`, publisher.credentialsSchema);
  }

  return addRoutes(doc, Object.values(apiRoutes), securityFor).toJSON();
}
