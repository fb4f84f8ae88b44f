import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { routeKey } from '@postwave/shared/openapi/index';
import { apiRoutes } from '#server/api/registry.ts';
import { allowedMethods } from '#server/http/allowed-methods.ts';
import { routeMethodsFile, routeMethodsSource } from '../../../scripts/route-methods.ts';

const appDir = fileURLToPath(new URL('../../../app/', import.meta.url));
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === 'route.ts' ? [path] : [];
  });
}

/** `app/api/v1/posts/[id]/route.ts` → `/api/v1/posts/{id}` (route groups dropped, `[...x]` → `{x}`). */
function pathOf(file: string): string {
  const segments = relative(appDir, file).split(sep).slice(0, -1);
  const path = segments
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}'))
    .join('/');
  return `/${path}`;
}

/** The HTTP methods a route file serves (`export const GET`, `export function GET`, `export const { GET } = …`). */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|(?:async\s+)?function)\s+([A-Z]+)\b/g)) found.add(m[1]!);
  // `refusedOutsideProxy` handlers answer 405 (methods the route does not serve): not operations.
  for (const m of source.matchAll(/export\s+const\s+\{([^}]+)\}\s*=\s*(\w+)/g))
    if (m[2] !== 'refusedOutsideProxy') for (const name of m[1]!.split(',')) found.add(name.trim());
  return [...found].filter((name) => methods.includes(name));
}

describe('route registry (Scheduler)', () => {
  test('every exported route handler has a registry entry, and every entry a handler', () => {
    const handlers = routeFiles(appDir)
      .flatMap((file) =>
        exportedMethods(readFileSync(file, 'utf8')).map((method) => routeKey({ method, path: pathOf(file) })),
      )
      .sort();
    const registry = Object.values(apiRoutes).map(routeKey).sort();
    assert.deepEqual(handlers, registry);
  });

  test('no method and path is declared twice, and operation ids are unique', () => {
    const routes = Object.values(apiRoutes);
    assert.equal(new Set(routes.map(routeKey)).size, routes.length);
    assert.equal(new Set(routes.map((r) => r.operationId)).size, routes.length);
  });

  test('handlers wired with route() name the entry of their own method and path', () => {
    for (const file of routeFiles(appDir)) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/export const ([A-Z]+) = route\(\s*\w+\.(\w+)/g)) {
        const entry = apiRoutes[m[2] as keyof typeof apiRoutes];
        assert.ok(entry, `${file}: no registry entry ${m[2]}`);
        assert.equal(routeKey(entry), routeKey({ method: m[1]!, path: pathOf(file) }), file);
      }
    }
  });

  test('the proxy’s map of route methods is current (else run node web/scripts/route-methods.ts)', async () => {
    assert.equal(readFileSync(routeMethodsFile, 'utf8'), await routeMethodsSource());
  });

  test('the proxy finds the route file Next serves a path from (static, then [id], then [...path])', () => {
    assert.deepEqual(allowedMethods('/api/v1/posts'), ['GET', 'HEAD', 'OPTIONS', 'POST']);
    assert.deepEqual(allowedMethods('/api/v1/posts/export'), ['GET', 'HEAD', 'OPTIONS']);
    assert.deepEqual(allowedMethods('/api/v1/posts/p1'), [
      'DELETE',
      'GET',
      'HEAD',
      'OPTIONS',
      'PATCH',
      'POST',
    ]);
    assert.deepEqual(allowedMethods('/api/v1/no/such/path'), [
      'DELETE',
      'GET',
      'HEAD',
      'OPTIONS',
      'PATCH',
      'POST',
      'PUT',
    ]);
    assert.deepEqual(allowedMethods('/media/abc.png'), ['GET', 'HEAD', 'OPTIONS', 'PUT']);
    assert.deepEqual(allowedMethods('/mcp'), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST']);
    assert.equal(allowedMethods('/posts'), undefined, 'a page');
    // Any other path under /api (and /mcp) is the catch-all's: a 404 problem for every method.
    const catchAll = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
    for (const path of ['/api/v1', '/api/oauth/nope', '/mcp/x'])
      assert.deepEqual(allowedMethods(path), catchAll, path);
    assert.deepEqual(
      allowedMethods('/api/oauth/token'),
      ['OPTIONS', 'POST'],
      'a static route is not shadowed',
    );
  });
});
