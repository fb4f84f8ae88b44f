import { problem } from '@postwave/shared';
import type { RequestHandler } from 'express';
import { sendProblem } from './errors.ts';

/*
 * What this server answers for a request no route took, before the plain 404 (contract B): a
 * Scheduler feature is 501 `not_supported` (it is absent in this deployment, not missing), and a
 * path this server serves called with another method is 405 `method_not_allowed` with `Allow`, as
 * the Scheduler answers. Anything else stays 404 `not_found`.
 */

/** The Scheduler's API by path (and method, where this server serves the path with another). */
const schedulerOnly: readonly { path: RegExp; methods?: readonly string[] }[] = [
  { path: /^\/api\/v1\/posts\/?$/, methods: ['GET'] },
  { path: /^\/api\/v1\/posts\/.+/ },
  { path: /^\/api\/v1\/accounts\/?$/, methods: ['POST'] },
  { path: /^\/api\/v1\/accounts\/.+/ },
  {
    path: /^\/api\/v1\/(analytics|audit|feeds|invitations|link-preview|mcp-clients|media|review|snippets|templates|tokens|webhooks|workspaces)(\/.*)?$/,
  },
];

/** `/media/{key}` → a pattern matching one path segment per parameter. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);

export function unroutedHandler(routes: Iterable<{ method: string; path: string }>): RequestHandler {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method.toUpperCase());
    if (method.toUpperCase() === 'GET') methods.add('HEAD'); // Express answers HEAD with the GET route
    byPath.set(path, methods);
  }
  const served = [...byPath].map(([path, methods]) => ({
    pattern: patternOf(path),
    allow: [...methods].sort(),
  }));
  return (req, res, next) => {
    const method = req.method.toUpperCase();
    if (schedulerOnly.some((s) => s.path.test(req.path) && (!s.methods || s.methods.includes(method)))) {
      sendProblem(
        res,
        problem(
          'not_supported',
          `${method} ${req.path} is a Postwave Scheduler feature; this self-hosted server publishes now (POST /api/v1/posts), validates, uploads media and lists its accounts`,
        ),
      );
      return;
    }
    const known = served.find((s) => s.pattern.test(req.path));
    if (known && !known.allow.includes(method)) {
      sendProblem(res, problem('method_not_allowed', `${method} is not allowed on ${req.path}`), {
        Allow: known.allow.join(', '),
      });
      return;
    }
    next();
  };
}
