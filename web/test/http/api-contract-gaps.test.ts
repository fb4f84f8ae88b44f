import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routeMethods } from '#server/api/route-methods.ts';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete URL path for a route file's path: `[id]` → `x1`, `[...path]` → `x1/x2`. */
function concrete(path: string): string {
  return path.replace(/\[\.\.\.[^\]]+\]/g, 'x1/x2').replace(/\[[^\]]+\]/g, 'x1');
}

/** The Allow header Next's own OPTIONS would send: the file's methods, HEAD with GET, and OPTIONS. */
function expectedAllow(exported: readonly string[]): string {
  const allow = new Set([...exported, 'OPTIONS']);
  if (allow.has('GET')) allow.add('HEAD');
  return [...allow].sort().join(', ');
}

// The method refusal happens in the proxy before any database access, and the OpenAPI document
// does not depend on the database: one backend is enough here.
describe('contract B on every route file: 405 problems, and the responses /openapi.json lists', () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp('pglite');
  });
  after(() => app?.stop());

  test('an unsupported method on any route file is a 405 problem with a correct Allow header', async () => {
    // routeMethods is proven equal to the route files' exports (test/server/api/route-registry.test.ts).
    for (const [path, exported] of Object.entries(routeMethods)) {
      const url = concrete(path);
      const allow = expectedAllow(exported);
      for (const method of methods.filter((m) => !exported.includes(m))) {
        const response = await fetch(`${app.url}${url}`, { method, redirect: 'manual' });
        assert.equal(response.status, 405, `${method} ${url}`);
        assert.equal(response.headers.get('content-type'), 'application/problem+json', `${method} ${url}`);
        assert.equal(response.headers.get('allow'), allow, `${method} ${url}`);
        const body = await response.json();
        assert.equal(body.code, 'method_not_allowed', `${method} ${url}`);
        assert.equal(body.status, 405);
        assert.ok(body.detail.includes(allow), `${method} ${url}: ${body.detail}`);
      }
      // The methods Allow names work: Next's own OPTIONS lists the same ones, and HEAD is no 405.
      if (!exported.includes('OPTIONS')) {
        const options = await fetch(`${app.url}${url}`, { method: 'OPTIONS' });
        assert.equal(options.status, 204, `OPTIONS ${url}`);
        assert.equal(options.headers.get('allow'), allow, `OPTIONS ${url}`);
      }
      if (exported.includes('GET')) {
        const head = await fetch(`${app.url}${url}`, { method: 'HEAD', redirect: 'manual' });
        assert.notEqual(head.status, 405, `HEAD ${url}`);
      }
    }
  });

  test('the upload route, outside the proxy for its bodies, still refuses other methods with a problem', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(`${app.url}/api/v1/upload`, { method });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'OPTIONS, POST');
      assert.equal((await response.json()).code, 'method_not_allowed');
    }
    // With a body, the request skips the proxy: the route file answers the same problem.
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${app.url}/api/v1/upload`, { method, body: 'x'.repeat(2048) });
      assert.equal(response.status, 405, `${method} with a body`);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      assert.equal(response.headers.get('allow'), 'OPTIONS, POST');
      assert.equal((await response.json()).code, 'method_not_allowed');
      assert.ok(response.headers.get('content-security-policy'), 'the API security headers');
    }
    // A signed media URL skips the proxy too (its PUT is an upload).
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const response = await fetch(`${app.url}/media/some-key.png?expires=1&signature=x`, {
        method,
        body: 'x'.repeat(2048),
      });
      assert.equal(response.status, 405, `${method} on a signed media URL`);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS, PUT');
      assert.equal((await response.json()).code, 'method_not_allowed');
    }
    // Uploads themselves still reach the route (401 without credentials, not 405).
    const upload = await fetch(`${app.url}/api/v1/upload`, { method: 'POST', body: new FormData() });
    assert.equal(upload.status, 401);
  });

  test('every operation with a JSON body lists 400, 413 and 422, and they happen', async () => {
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      info: { description: string };
      paths: Record<
        string,
        Record<
          string,
          { operationId: string; requestBody?: { content: object }; responses: Record<string, unknown> }
        >
      >;
    };
    assert.match(doc.info.description, /over 1 MiB is 413/);
    assert.match(doc.info.description, /405 `method_not_allowed`/);
    assert.equal(doc.paths['/api/v1/validation']!.post!.responses['422'], undefined);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!Object.keys(operation.requestBody?.content ?? {}).some((type) => type.endsWith('json')))
          continue;
        // Validation answers rule breaks 200 `valid: false` (contract B): no 422 there.
        const statuses = path === '/api/v1/validation' ? ['400', '413'] : ['400', '413', '422'];
        for (const status of statuses)
          assert.ok(
            operation.responses[status],
            `${method.toUpperCase()} ${path} (${operation.operationId}) lists no ${status}`,
          );
      }
    }
    const { api } = await userWithToken(app.url, 'gaps');
    const wrongTypes = await api.json('/api/v1/posts/p_missing', { method: 'PATCH', json: { message: 5 } });
    assert.equal(wrongTypes.status, 400);
    const badJson = await api.fetch('/api/v1/posts/p_missing', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(badJson.status, 400);
    const badKey = await api.json('/api/v1/posts/p_missing', {
      json: { postingMode: 'draft' },
      headers: { 'idempotency-key': 'k'.repeat(300) },
    });
    assert.equal(badKey.status, 400);
    const huge = await api.json('/api/v1/posts', {
      json: { message: 'x'.repeat(6 * 1024 * 1024), accountIds: [] },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'payload_too_large');
  });

  test('/openapi.json lists the answers and headers the server sends', async () => {
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; schema: Record<string, unknown> }[];
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
    };
    const op = (path: string, method: string) => doc.paths[path]![method]!;
    const param = (path: string, name: string) =>
      op(path, 'get').parameters!.find((p) => p.name === name)!.schema;
    assert.deepEqual(param('/api/v1/posts', 'limit'), {
      default: 50,
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    assert.deepEqual(param('/api/v1/audit', 'limit'), {
      default: 50,
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    // The media library pages as the other lists do (contract B: max 200).
    assert.deepEqual(param('/api/v1/media', 'limit'), {
      default: 50,
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    assert.deepEqual(param('/api/v1/webhooks/{id}/deliveries', 'limit'), {
      default: 50,
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        for (const parameter of operation.parameters ?? [])
          assert.doesNotMatch(
            JSON.stringify(parameter.schema),
            /9007199254740991/,
            `${method} ${path} ${parameter.name}: the bounds the server enforces, not the safe-integer ones`,
          );
    assert.ok(
      op('/api/v1/upload', 'post').responses['200'],
      'the same bytes again: 200 with the existing media',
    );
    assert.ok(op('/media/{key}', 'put').responses['409'], 'a signed URL used twice');
    assert.ok(op('/api/v1/posts', 'post').responses['202'], 'submitted for approval');
    for (const [path, method] of [
      ['/api/v1/posts', 'post'],
      ['/api/v1/posts/{id}', 'post'],
    ] as const) {
      const responses = op(path, method).responses;
      assert.ok(responses['200'] ?? responses['201']);
      for (const status of Object.keys(responses).filter((s) => /^2/.test(s)))
        assert.ok(responses[status]!.headers?.['Idempotent-Replayed'], `${path} ${method} ${status}`);
      assert.ok(responses['409']!.headers?.['Retry-After'], `${path} ${method} 409`);
      assert.ok(responses['503']!.headers?.['Retry-After'], `${path} ${method} 503`);
    }
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        if (operation.responses['429'])
          assert.ok(operation.responses['429'].headers?.['Retry-After'], `${method} ${path} 429`);
  });
});
