import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { oddTargetFailure, send, sendRaw } from '../../../shared/test/support/http-fuzz.ts';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

/** Hostile input is a 4xx problem, never a 5xx (SECURITY.md), on PGlite and PostgreSQL. */
for (const backend of backends()) {
  describe(`Scheduler: hostile input (${backend})`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(backend);
    });
    after(() => app?.stop());

    const nul = 'a\u0000b';

    test('NUL in unauthenticated bodies: sign-up, password reset, client registration, sign-in', async () => {
      const anonymous = new Client(app.url);
      for (const json of [
        { email: `x${nul}@example.com`, password: 'correct horse battery' },
        { email: 'nul@example.com', password: `correct horse ${nul}` },
        { email: 'nul2@example.com', password: 'correct horse battery', name: nul },
      ]) {
        const res = await anonymous.json('/api/auth/signup', { json });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.code, 'invalid_request');
      }
      const reset = await anonymous.json('/api/auth/password-reset', {
        json: { email: `a${nul}@example.com` },
      });
      assert.equal(reset.status, 400, JSON.stringify(reset.body));
      const confirm = await anonymous.json('/api/auth/password-reset/confirm', {
        json: { token: nul, password: 'correct horse battery' },
      });
      assert.equal(confirm.status, 400, JSON.stringify(confirm.body));
      const registration = await anonymous.json('/api/oauth/register', {
        json: {
          client_name: nul,
          redirect_uris: ['http://127.0.0.1:9/callback'],
          token_endpoint_auth_method: 'none',
        },
      });
      assert.equal(registration.status, 400, JSON.stringify(registration.body));
      const token = await anonymous.fetch('/api/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&code=%00&client_id=%00&code_verifier=x`,
      });
      assert.ok(token.status >= 400 && token.status < 500, String(token.status));
      const csrf = await anonymous.json('/api/auth/csrf');
      const signIn = await anonymous.fetch('/api/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: `x${nul}@example.com`,
          password: nul,
          csrfToken: csrf.body.csrfToken,
        }).toString(),
      });
      assert.ok(signIn.status < 500, String(signIn.status));
    });

    test('NUL in authenticated JSON fields is 400 invalid_request', async () => {
      const { api, session } = await userWithToken(app.url, 'nul');
      const tokens = await session.json('/api/v1/tokens', { json: { name: nul } });
      assert.equal(tokens.status, 400, JSON.stringify(tokens.body));
      const post = await api.json('/api/v1/posts', {
        json: { message: nul, accountIds: [], postingMode: 'draft' },
      });
      assert.equal(post.status, 400, JSON.stringify(post.body));
      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', platformAccountId: nul, credentials: { botToken: nul }, label: nul },
      });
      assert.equal(account.status, 400, JSON.stringify(account.body));
      const deep = await api.fetch('/api/v1/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
        body: `{"message":"x","accountIds":[],"postingMode":"draft","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      });
      assert.equal(deep.status, 400);
    });

    test('a number beyond a double (1e400) is 400, a lone surrogate 422 lone_surrogate: a draft would have stored null or U+FFFD', async () => {
      const { api } = await userWithToken(app.url, 'infinite');
      const draft = await api.json('/api/v1/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"message":"x","accountIds":[],"postingMode":"draft","accountOptions":{"a":{"n":1e400}}}',
      });
      assert.equal(draft.status, 400, JSON.stringify(draft.body));
      assert.equal(draft.body.code, 'invalid_request');
      assert.match(draft.body.detail, /out of range/);
      const lone = await api.fetch('/api/v1/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"message":"half \\ud83d an emoji","accountIds":[],"postingMode":"draft"}',
      });
      assert.equal(lone.status, 422, 'an unpaired surrogate would be stored as U+FFFD');
      const problem = await lone.json();
      assert.deepEqual([problem.errors[0].code, problem.errors[0].path], ['lone_surrogate', 'message']);
      assert.deepEqual((await api.json('/api/v1/posts?status=draft')).body.posts, [], 'nothing stored');
    });

    test('a JSON body is UTF-8: bytes that are not are 400, another declared charset 415', async () => {
      const { api } = await userWithToken(app.url, 'utf8');
      const latin1 = Buffer.concat([
        Buffer.from('{"message":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('","accountIds":[],"postingMode":"draft"}'),
      ]);
      const notUtf8 = await api.json('/api/v1/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: latin1,
      });
      assert.equal(notUtf8.status, 400, JSON.stringify(notUtf8.body));
      assert.equal(notUtf8.body.code, 'invalid_request');
      for (const charset of ['iso-8859-1', 'utf-16']) {
        const declared = await api.json('/api/v1/validation', {
          method: 'POST',
          headers: { 'content-type': `application/json; charset=${charset}` },
          body: '{"message":"x","accountIds":[]}',
        });
        assert.equal(declared.status, 415, charset);
        assert.equal(declared.body.code, 'unsupported_media_type');
      }
      const utf8 = await api.json('/api/v1/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: Buffer.from('{"message":"café","accountIds":[],"postingMode":"draft"}'),
      });
      assert.notEqual(utf8.status, 400, 'a declared UTF-8 charset is JSON');
      assert.notEqual(utf8.status, 415);
    });

    test('malformed percent-encoding and NUL in paths and queries are 400 invalid_request', async () => {
      const { api } = await userWithToken(app.url, 'percent');
      for (const path of [
        '/api/v1/posts/%ZZ',
        '/api/v1/posts?status=%ZZ',
        '/api/v1/posts?cursor=%00',
        '/api/v1/accounts/%E0%A4%A',
        '/media/%ZZ',
        '/posts/%ZZ',
        '/api/cli/authorize?state=%ZZ',
      ]) {
        const answer = await send(app.url, {
          method: 'GET',
          path,
          headers: { authorization: `Bearer ${api.token}` },
          body: undefined,
        });
        assert.equal(answer.status, 400, `${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
        assert.equal(JSON.parse(answer.body).code, 'invalid_request', path);
      }
      const big = await send(app.url, {
        method: 'GET',
        path: '/api/v1/posts',
        headers: { 'x-big': 'a'.repeat(20 * 1024) },
        body: undefined,
      });
      // Contract D: oversize headers are 400 invalid_request, with a problem body.
      assert.equal(big.status, 400);
      assert.equal(JSON.parse(big.body).code, 'invalid_request');
    });

    test('an HTTP/1.1 request without Host is 400 invalid_request with a problem body, not a bare 400', async () => {
      const answer = await sendRaw(app.url, 'GET /api/v1/accounts HTTP/1.1\r\nConnection: close');
      assert.equal(answer.status, 400);
      assert.match(answer.contentType, /^application\/problem\+json/);
      assert.equal(JSON.parse(answer.body).code, 'invalid_request');
    });

    test('an absolute-form target is served as its path (RFC 9112), the asterisk form only for OPTIONS', async () => {
      const host = new URL(app.url).host;
      for (const authority of [host, 'elsewhere.example']) {
        const answer = await sendRaw(
          app.url,
          `GET http://${authority}/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close`,
        );
        assert.equal(answer.status, 200, `${authority}: ${answer.status} ${answer.body}`);
      }
      assert.equal(await oddTargetFailure(app.url), undefined);
    });

    test('an API path no route serves (under /api or /mcp) is a 404 problem body, whatever the method', async () => {
      const { api } = await userWithToken(app.url, 'lost');
      for (const [method, path] of [
        ['GET', '/api/v1/nope'],
        ['POST', '/api/v1/posts/import/nope'],
        ['DELETE', '/api/v1/accounts/x/y/z'],
        ['PATCH', '/api/v1/does/not/exist'],
        ['GET', '/api/nope'],
        ['GET', '/api/oauth/nope'],
        ['POST', '/api/cli/nope'],
        ['GET', '/api/internal/nope'],
        ['DELETE', '/api/v2/posts'],
        ['GET', '/mcp/nope'],
      ] as const) {
        const res = await api.fetch(path, { method, ...(method === 'GET' ? {} : { json: {} }) });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.headers.get('content-type'), 'application/problem+json');
        assert.equal((await res.json()).code, 'not_found');
      }
      // A real route is not shadowed by the catch-alls.
      assert.equal((await api.fetch('/api/v1/accounts')).status, 200);
      const whoami = await fetch(`${app.url}/api/cli/whoami`);
      assert.equal(whoami.status, 401, 'the CLI route answers, not the catch-all');
      assert.equal((await fetch(`${app.url}/api/oauth/token`, { method: 'POST' })).status === 404, false);
    });
  });
}
