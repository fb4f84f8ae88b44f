import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expressPath, routeKey } from '@postwave/shared/openapi/index';
import { apiRoutes } from '../src/api-routes.ts';
import { createApp } from '../src/app.ts';
import { startTestServer, type TestServer } from './helpers.ts';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every `METHOD path` the Express app answers, found by walking its routers. */
function mountedRoutes(stack: Layer[]): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all')
        .map((method) => routeKey({ method, path: layer.route!.path }));
    }
    return layer.handle?.stack ? mountedRoutes(layer.handle.stack) : [];
  });
}

describe('route registry (self-hosted)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('every mounted route has a registry entry, and every entry is mounted', () => {
    const app = createApp(server.config, server.services) as unknown as { router: { stack: Layer[] } };
    const mounted = mountedRoutes(app.router.stack).sort();
    const registry = Object.values(apiRoutes({ maxUploadBytes: 1, platformIds: [] }))
      .map((route) => routeKey({ method: route.method, path: expressPath(route.path) }))
      .sort();
    assert.deepEqual(mounted, registry);
  });

  it('/openapi.json lists exactly the documented registry entries', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const listed = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => routeKey({ method, path })))
      .sort();
    const documented = Object.values(apiRoutes({ maxUploadBytes: 1, platformIds: [] }))
      .filter((route) => !('undocumented' in route && route.undocumented))
      .map(routeKey)
      .sort();
    assert.deepEqual(listed, documented);
  });
});
