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

  it('every JSON-body operation lists 400, 413, 415 and 422; publishing lists 503 with Retry-After', async () => {
    type Response = { description: string; headers?: Record<string, unknown> };
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      info: { description: string };
      paths: Record<
        string,
        Record<string, { requestBody?: { content: object }; responses: Record<string, Response> }>
      >;
    };
    assert.match(doc.info.description, /over 2 MiB is 413/);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        if (!Object.keys(operation.requestBody?.content ?? {}).some((type) => type.endsWith('json')))
          continue;
        // Validation answers rule breaks 200 `valid: false` (contract B): no 422 there.
        const statuses = path === '/api/v1/validation' ? ['400', '413', '415'] : ['400', '413', '415', '422'];
        for (const status of statuses)
          assert.ok(operation.responses[status], `${method} ${path} lists no ${status}`);
        assert.match(operation.responses['413']!.description, /JSON body is over 2 MiB/, `${method} ${path}`);
      }
    const publish = doc.paths['/api/v1/posts']!.post!.responses;
    assert.ok(publish['503']?.headers?.['Retry-After']);
    assert.ok(publish['409']?.headers?.['Retry-After']);
    for (const status of ['200', '207', '502'])
      assert.ok(publish[status]?.headers?.['Idempotent-Replayed'], status);
    assert.ok(doc.paths['/media/{key}']!.put!.responses['409'], 'a signed URL used twice');
  });

  it('a JSON body over 2 MiB is 413, a non-UTF-8 charset 415 and non-UTF-8 bytes 400, as documented', async () => {
    const headers = { 'x-api-key': server.config.apiKey, 'content-type': 'application/json' };
    const huge = await fetch(`${server.url}/api/v1/validation`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'x'.repeat(3 * 1024 * 1024), accountIds: [] }),
    });
    assert.equal(huge.status, 413);
    const latin1 = await fetch(`${server.url}/api/v1/posts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json; charset=iso-8859-1' },
      body: '{}',
    });
    assert.equal(latin1.status, 415);
    const utf16 = await fetch(`${server.url}/api/v1/validation`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json; charset=utf-16' },
      body: '{}',
    });
    assert.equal(utf16.status, 415);
    // Bytes that are not UTF-8 (Latin-1 é) are not JSON text: 400, not a replacement character.
    const notUtf8 = await fetch(`${server.url}/api/v1/validation`, {
      method: 'POST',
      headers,
      body: Buffer.concat([
        Buffer.from('{"message":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('","accountIds":["tg-main"]}'),
      ]),
    });
    assert.equal(notUtf8.status, 400);
    assert.equal(((await notUtf8.json()) as { code: string }).code, 'invalid_request');
  });
});
