import {
  apiContentSecurityPolicy,
  baselineSecurityHeaders,
  isJsonContentType,
  jsonBodyProblem,
  malformedRequestTarget,
  ProblemError,
  problem,
  strictUtf8Text,
} from '@postwave/shared';
import express, { type Express } from 'express';
import { apiRoutes, maxJsonBodyBytes } from './api-routes.ts';
import type { Config } from './config.ts';
import { requireApiKey } from './http/auth.ts';
import { notFoundHandler, notUtf8BodyError, problemHandler } from './http/errors.ts';
import { inSequence } from './http/sequence.ts';
import { methodAnswers } from './http/unrouted.ts';
import { installRequestLogging } from './logging.ts';
import { accountsRouter } from './routes/accounts.ts';
import { docsRouter } from './routes/docs.ts';
import { healthRouter } from './routes/health.ts';
import { mediaRouter, sandboxMedia } from './routes/media.ts';
import { metricsRouter } from './routes/metrics.ts';
import { postsRouter } from './routes/posts.ts';
import { uploadRouter } from './routes/upload.ts';
import type { Services } from './services.ts';
import { version } from './version.ts';

/** The HTTP adapter: authentication, parsing and error mapping around the SDK. No listening here. */
export function createApp(config: Config, services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');

  installRequestLogging(app, services.logger);
  const routes = apiRoutes({
    maxUploadBytes: config.maxUploadBytes,
    platformIds: services.publishers.list().map((publisher) => publisher.id),
  });

  // Every response (SECURITY.md, "Browser hardening"); pages and /media set their own
  // Content-Security-Policy over this one. Set straight on the response: Express's res.set adds
  // nothing for these plain values, and every request pays for it.
  const securityHeaders = [
    ...Object.entries(baselineSecurityHeaders),
    ['Content-Security-Policy', apiContentSecurityPolicy],
  ] as const;
  app.use((req, res, next) => {
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    if (malformedRequestTarget(req.originalUrl))
      return next(
        new ProblemError(problem('invalid_request', 'The URL has malformed percent-encoding or a NUL')),
      );
    next();
  });

  // The API first, its busiest routes first: every router a request passes costs it route matching.
  app.use(
    '/api',
    inSequence(
      requireApiKey(config.apiKey),
      // The types the JSON-only routes accept (others are 415 there, see `on` in api-routes.ts), parsed alike.
      express.json({
        limit: maxJsonBodyBytes,
        type: (req) => isJsonContentType(req.headers['content-type']),
        // body-parser would replace bytes that are not UTF-8; such a body is not JSON text (400).
        verify: (_req, _res, bytes) => {
          if (strictUtf8Text(bytes) === undefined) throw notUtf8BodyError();
        },
      }),
      (req, _res, next) => next(jsonBodyProblem(req.body)),
    ),
  );
  // OPTIONS and the answers to methods no route serves (405 with `Allow`, 501) come from one table.
  const answers = methodAnswers(Object.values(routes));
  app.use('/media', sandboxMedia);
  app.use(answers.options);
  app.use(postsRouter(routes, services.publishing, services.idempotency));
  app.use(accountsRouter(routes, services.accounts));
  app.use(uploadRouter(routes, services.storage, config.maxUploadBytes));

  // Public: health, metrics (its own token), media (keys are unguessable; uploads carry their own signature), API description.
  // None of these paths is under /api, so the key check above never applies to them.
  app.use(healthRouter(routes, services.storage, services.publishing, version));
  app.use(metricsRouter(routes, config.metricsToken));
  app.use(mediaRouter(routes, services.storage));
  app.use(docsRouter(routes, config, services.publishers));

  app.use(answers.unrouted);
  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
