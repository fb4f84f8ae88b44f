import { AccountsFile, type PublisherRegistry } from '@postwave/shared';
import {
  addRoutes,
  jsonBodyLimitRule,
  metricsSecurityScheme,
  OpenApiDocument,
  requestBodyRules,
} from '@postwave/shared/openapi/index';
import { type ApiRoutes, maxJsonBodyBytes, pascal } from './api-routes.ts';
import { version } from './version.ts';

/** The OpenAPI 3.1 description of this server: the route registry plus the platforms' schemas. */
export function buildOpenApi(publicUrl: string, publishers: PublisherRegistry, routes: ApiRoutes) {
  const doc = new OpenApiDocument({
    info: {
      title: 'Postwave self-hosted API',
      version,
      description: [
        'Publishes a message, optionally with media, to the accounts listed in the server’s accounts file.',
        'Stateless: one shared API key, no users, no scheduling (that is the Postwave Scheduler).',
        '',
        '**Errors** are RFC 9457 `application/problem+json` bodies with a stable snake_case `code`. A Scheduler feature (listing, reading or editing stored posts, workspaces, tokens, analytics, the media library, webhooks…) answers 501 `not_supported` here; a route of this server called with another method answers 405 `method_not_allowed` with `Allow`, which lists every method the path answers (its 501 ones included), as OPTIONS does (204); any other path 404 `not_found`.',
        requestBodyRules,
        jsonBodyLimitRule(maxJsonBodyBytes),
        '**Credentials** from the accounts file never appear in any response, log line or error.',
      ].join('\n'),
    },
    servers: [{ url: publicUrl }],
    securitySchemes: {
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: 'Must equal `SERVICE_API_KEY` (compared in constant time).',
      },
      metricsToken: metricsSecurityScheme,
    },
    security: [{ apiKey: [] }],
    maxJsonBodyBytes,
    tags: [
      { name: 'Publishing', description: 'Validate and publish posts.' },
      { name: 'Media', description: 'Upload media for posts, and serve it publicly by key.' },
      { name: 'Accounts', description: 'The accounts from the accounts file.' },
      { name: 'Service', description: 'Health, readiness, metrics and this description.' },
    ],
  });
  for (const publisher of publishers.list()) {
    doc.component(`${pascal(publisher.id)}Credentials`, publisher.credentialsSchema);
    doc.component(`${pascal(publisher.id)}Options`, publisher.optionsSchema);
  }
  doc.component('AccountsFile', AccountsFile);
  return addRoutes(doc, Object.values(routes), (auth) => (auth === 'public' ? [] : undefined)).toJSON();
}
