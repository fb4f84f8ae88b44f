import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keepAliveHeader } from '@postwave/shared/testing';
import { apiRoutes } from '../src/api-routes.ts';
import { apiKey, expectProblem, startTestServer, type TestServer } from './helpers.ts';

describe('HTTP basics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('GET /health answers without a key', async () => {
    const response = await fetch(`${server.url}/health`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok', version: '0.1.0' });
  });

  it("keeps idle connections 65 s, past a proxy's usual 60 s (docs/operations.md)", async () => {
    assert.equal(await keepAliveHeader(`${server.url}/health`), 'timeout=65');
  });

  it('refuses /api routes without the key, or with a wrong one, as 401 problems', async () => {
    await expectProblem(await fetch(`${server.url}/api/v1/accounts`), 401, 'unauthorized');
    await expectProblem(
      await server.api('/api/v1/accounts', { headers: { 'x-api-key': `${apiKey}x` } }),
      401,
      'unauthorized',
    );
    await expectProblem(
      await server.api('/api/v1/posts', { json: { message: 'x' }, headers: { 'x-api-key': '' } }),
      401,
      'unauthorized',
    );
  });

  it('lists accounts without credentials', async () => {
    const response = await server.api('/api/v1/accounts');
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.doesNotMatch(text, /botToken|credentials|AAAbbb/);
    const body = JSON.parse(text) as { accounts: Record<string, unknown>[] };
    assert.deepEqual(body.accounts[0], {
      id: 'tg-main',
      platform: 'telegram',
      platformAccountId: '@main',
      label: 'Main',
    });
    assert.equal(body.accounts.length, 3);
  });

  it('answers unknown routes with a 404 problem', async () => {
    await expectProblem(await server.api('/api/v1/nothing'), 404, 'not_found');
    await expectProblem(await fetch(`${server.url}/nothing`), 404, 'not_found');
  });

  it('answers Scheduler features with 501 not_supported, and another method on a route with 405 and Allow', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/posts'],
      ['GET', `/api/v1/posts/${crypto.randomUUID()}`],
      ['PATCH', `/api/v1/posts/${crypto.randomUUID()}`],
      ['DELETE', `/api/v1/posts/${crypto.randomUUID()}`],
      ['POST', '/api/v1/accounts'],
      ['DELETE', `/api/v1/accounts/${crypto.randomUUID()}`],
      ['GET', '/api/v1/workspaces'],
      ['GET', '/api/v1/analytics'],
      ['GET', '/api/v1/media'],
      ['POST', '/api/v1/webhooks'],
    ] as const) {
      const body = await expectProblem(
        await server.api(path, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        }),
        501,
        'not_supported',
      );
      assert.match(String(body.detail), /Scheduler/, `${method} ${path}`);
    }
    // `Allow` names every method the path answers: the Scheduler's 501 ones too (GET on /posts).
    const wrong = await server.api('/api/v1/posts', { method: 'DELETE' });
    await expectProblem(wrong.clone(), 405, 'method_not_allowed');
    assert.equal(wrong.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    const accounts = await server.api('/api/v1/accounts', { method: 'DELETE' });
    await expectProblem(accounts.clone(), 405, 'method_not_allowed');
    assert.equal(accounts.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    const upload = await server.api('/api/v1/upload', { method: 'GET' });
    await expectProblem(upload.clone(), 405, 'method_not_allowed');
    assert.equal(upload.headers.get('allow'), 'OPTIONS, POST');
    const media = await fetch(`${server.url}/media/some-key.png`, { method: 'DELETE' });
    await expectProblem(media.clone(), 405, 'method_not_allowed');
    assert.match(media.headers.get('allow') ?? '', /GET/);
    assert.equal(media.headers.get('content-security-policy'), 'sandbox', 'every /media answer is sandboxed');
    // Without the key, the API still answers 401 first.
    await expectProblem(await fetch(`${server.url}/api/v1/workspaces`), 401, 'unauthorized');
  });

  it('`Allow` and OPTIONS agree with what each route path answers: a method is 405 exactly when Allow leaves it out', async () => {
    const paths = [
      ...new Set(
        Object.values(apiRoutes({ maxUploadBytes: 1, platformIds: [] })).map((route) =>
          route.path.replace(/\{[^}]+\}/g, 'some-key.png'),
        ),
      ),
    ];
    assert.ok(paths.includes('/api/v1/posts') && paths.includes('/media/some-key.png'), paths.join(' '));
    for (const path of paths) {
      const options = await server.api(path, { method: 'OPTIONS' });
      assert.equal(options.status, 204, `OPTIONS ${path}`);
      const allow = (options.headers.get('allow') ?? '').split(', ');
      assert.deepEqual(allow, [...allow].sort(), `OPTIONS ${path}: sorted`);
      assert.ok(allow.includes('OPTIONS'), `OPTIONS ${path}: ${allow}`);
      if (allow.includes('GET')) assert.ok(allow.includes('HEAD'), `${path}: HEAD with GET`);
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        // An empty body: whatever is answered, it is never published, stored or uploaded.
        const response = await server.api(path, {
          method,
          ...(['GET', 'HEAD'].includes(method)
            ? {}
            : { body: '{}', headers: { 'content-type': 'application/json' } }),
        });
        const text = await response.text();
        assert.equal(
          response.status === 405,
          !allow.includes(method),
          `${method} ${path}: ${response.status}`,
        );
        if (response.status === 405) {
          // The same words as the Scheduler's 405: the detail names what is allowed.
          assert.equal(response.headers.get('allow'), allow.join(', '), `${method} ${path}`);
          if (method !== 'HEAD')
            assert.ok(JSON.parse(text).detail.endsWith(`allowed: ${allow.join(', ')}`), `${method} ${path}`);
        }
      }
    }
    // HEAD of a Scheduler GET is the same 501 as the GET, not a 405.
    assert.equal((await server.api('/api/v1/posts', { method: 'HEAD' })).status, 501);
    // OPTIONS under /media is sandboxed like every other answer there.
    const media = await fetch(`${server.url}/media/some-key.png`, { method: 'OPTIONS' });
    assert.equal(media.headers.get('content-security-policy'), 'sandbox');
  });

  it('answers malformed JSON and wrong types with 400 problems', async () => {
    const malformed = await server.api('/api/v1/validation', {
      method: 'POST',
      body: '{"message": ',
      headers: { 'content-type': 'application/json' },
    });
    const body = await expectProblem(malformed, 400, 'invalid_request');
    assert.doesNotMatch(String(body.detail), /message/);
    await expectProblem(
      await server.api('/api/v1/validation', { json: { message: 42, accountIds: 'tg-main' } }),
      400,
      'invalid_request',
    );
    // fetch sends a string body as text/plain: not JSON, so 415 (validation.test.ts), not a missing body.
    await expectProblem(
      await server.api('/api/v1/posts', { method: 'POST', body: 'message=hi' }),
      415,
      'unsupported_media_type',
    );
  });

  it('echoes a sane x-request-id and replaces an insane one', async () => {
    const sane = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'abc-123.trace:1' } });
    assert.equal(sane.headers.get('x-request-id'), 'abc-123.trace:1');
    const insane = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'a b<script>' } });
    assert.match(insane.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(server.logs.some((line) => line.includes('"abc-123.trace:1"')));
  });

  it('serves an OpenAPI 3.1 document covering every path, and a docs page', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    assert.equal(response.status, 200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { name: string }> };
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/api/v1/accounts',
      '/api/v1/posts',
      '/api/v1/upload',
      '/api/v1/upload/presign',
      '/api/v1/validation',
      '/docs',
      '/health',
      '/media/{key}',
      '/metrics',
      '/openapi.json',
      '/ready',
    ]);
    assert.deepEqual(Object.keys(doc.paths['/media/{key}']!).sort(), ['get', 'head', 'put']);
    assert.equal(doc.components.securitySchemes.apiKey?.name, 'x-api-key');
    const posts = doc.paths['/api/v1/posts']!.post!;
    assert.deepEqual(Object.keys(posts.responses).sort(), [
      '200',
      '207',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '500',
      '501',
      '502',
      '503',
    ]);
    assert.deepEqual(doc.paths['/health']!.get!.security, []);
    assert.deepEqual(doc.paths['/ready']!.get!.security, []);
    for (const name of ['PostRequest', 'Problem', 'MediaObject', 'PresignResponse', 'TelegramOptions']) {
      assert.ok(doc.components.schemas[name], `component ${name}`);
    }
    // Every $ref points at a component that exists.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      assert.ok(doc.components.schemas[name], `dangling ${ref}`);
    }

    const docs = await fetch(`${server.url}/docs`);
    assert.equal(docs.status, 200);
    const html = await docs.text();
    assert.match(html, /<title>Postwave self-hosted API/);
    assert.match(html, /data-url="\/openapi.json"/);
    assert.match(docs.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    // Scalar comes from our own node_modules: no CDN, works without internet.
    const src = html.match(/<script src="([^"]+)"/)?.[1];
    assert.equal(src, '/docs/scalar.js');
    assert.doesNotMatch(html, /https?:\/\//);
    const script = await fetch(`${server.url}${src}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  });
});
