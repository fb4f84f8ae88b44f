import { methodNotAllowedProblem, problem } from '@postwave/shared';
import type { RequestHandler } from 'express';
import { sendProblem } from './errors.ts';

/*
 * What this server answers for a method no route took, before the plain 404 (contract B): a
 * Scheduler feature is 501 `not_supported` (it is absent in this deployment, not missing), and a
 * path this server serves called with another method is 405 `method_not_allowed` with `Allow`, as
 * the Scheduler answers. Anything else stays 404 `not_found`.
 *
 * `Allow` and OPTIONS come from one table per path: the methods its routes serve, the Scheduler
 * methods it answers with 501 (they exist, this deployment lacks them), HEAD wherever GET is
 * answered, and OPTIONS, answered here. So a 405 never leaves out a method the path answers, and
 * OPTIONS says the same as a 405 (not Express's own OPTIONS answer, which knew one router only).
 */

/** Scheduler methods on paths this server also serves: answered 501. */
const schedulerMethods: readonly { path: string; methods: readonly string[] }[] = [
  { path: '/api/v1/posts', methods: ['GET'] },
  { path: '/api/v1/accounts', methods: ['POST'] },
];

/** Scheduler areas this server serves nothing of: every method is 501. */
const schedulerAreas: readonly RegExp[] = [
  /^\/api\/v1\/posts\/.+/,
  /^\/api\/v1\/accounts\/.+/,
  /^\/api\/v1\/(analytics|audit|feeds|invitations|link-preview|mcp-clients|media|review|snippets|templates|tokens|webhooks|workspaces)(\/.*)?$/,
];

/** `/media/{key}` → a pattern matching one path segment per parameter. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);

interface KnownPath {
  pattern: RegExp;
  /** Every method the path answers, sorted: the `Allow` header. */
  allow: string[];
  /** Those of them that are the Scheduler's (501 here). */
  scheduler: ReadonlySet<string>;
}

function knownPaths(routes: Iterable<{ method: string; path: string }>): KnownPath[] {
  const byPath = new Map<string, { served: Set<string>; scheduler: Set<string> }>();
  const entry = (path: string) => {
    const found = byPath.get(path) ?? { served: new Set<string>(), scheduler: new Set<string>() };
    byPath.set(path, found);
    return found;
  };
  for (const { method, path } of routes) entry(path).served.add(method.toUpperCase());
  for (const { path, methods } of schedulerMethods) for (const m of methods) entry(path).scheduler.add(m);
  return [...byPath].map(([path, { served, scheduler }]) => {
    // Express answers HEAD with the GET route; a Scheduler GET's HEAD is 501 alike.
    if (served.has('GET')) served.add('HEAD');
    if (scheduler.has('GET') && !served.has('GET')) scheduler.add('HEAD');
    return {
      pattern: patternOf(path),
      allow: [...new Set([...served, ...scheduler, 'OPTIONS'])].sort(),
      scheduler,
    };
  });
}

const notSupported = (method: string, path: string) =>
  problem(
    'not_supported',
    `${method} ${path} is a Postwave Scheduler feature; this self-hosted server publishes now (POST /api/v1/posts), validates, uploads media and lists its accounts`,
  );

/**
 * `options` goes before the routers (it answers OPTIONS on a known path: 204 with `Allow`);
 * `unrouted` after them (501, 405 with `Allow`, or on to the 404).
 */
export function methodAnswers(routes: Iterable<{ method: string; path: string }>): {
  options: RequestHandler;
  unrouted: RequestHandler;
} {
  const known = knownPaths(routes);
  const find = (path: string) => known.find((k) => k.pattern.test(path));
  return {
    options: (req, res, next) => {
      const path = req.method === 'OPTIONS' ? find(req.path) : undefined;
      if (!path) return next();
      res.status(204).set('Allow', path.allow.join(', ')).end();
    },
    unrouted: (req, res, next) => {
      const method = req.method.toUpperCase();
      const path = find(req.path);
      if (path?.scheduler.has(method) || (!path && schedulerAreas.some((area) => area.test(req.path)))) {
        return sendProblem(res, notSupported(method, req.path));
      }
      if (path && !path.allow.includes(method)) {
        return sendProblem(res, methodNotAllowedProblem(method, req.path, path.allow), {
          Allow: path.allow.join(', '),
        });
      }
      next();
    },
  };
}
