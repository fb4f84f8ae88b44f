import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { Client, signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

for (const backend of backends()) {
  describe(`auth and tokens (${backend})`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(backend);
    });
    after(() => app?.stop());

    test('sign-up returns 201 with the user and a working session cookie', async () => {
      const client = new Client(app.url);
      const email = `New.User-${Date.now()}@Example.com`;
      const res = await client.json('/api/auth/signup', {
        json: { email, password: 'long enough pw', name: 'Ann' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.user.email, email.toLowerCase());
      assert.equal(res.body.user.name, 'Ann');
      assert.equal(res.body.user.passwordHash, undefined);
      assert.ok(client.cookies.has('authjs.session-token'));
      const session = await client.json('/api/auth/session');
      assert.equal(session.body.user.email, email.toLowerCase());
      assert.equal((await client.json('/api/v1/accounts')).status, 200);

      const again = await new Client(app.url).json('/api/auth/signup', {
        json: { email, password: 'another long pw' },
      });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'email_taken');
    });

    test('sign-up rejects weak passwords and malformed emails with 422, wrong types with 400', async () => {
      const client = new Client(app.url);
      const weak = await client.json('/api/auth/signup', {
        json: { email: 'a@example.com', password: 'short' },
      });
      assert.equal(weak.status, 422);
      assert.equal(weak.body.errors[0].code, 'weak_password');
      const email = await client.json('/api/auth/signup', {
        json: { email: 'not-an-email', password: 'long enough pw' },
      });
      assert.equal(email.status, 422);
      assert.equal(email.body.errors[0].code, 'invalid_email');
      const crossSite = await client.json('/api/auth/signup', {
        json: { email: `x-${Date.now()}@example.com`, password: 'long enough pw' },
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(crossSite.status, 403, 'another site cannot sign its visitors up');
      assert.equal(client.cookies.size, 0);
      const types = await client.json('/api/auth/signup', { json: { email: 5, password: true } });
      assert.equal(types.status, 400);
      assert.equal(types.body.code, 'invalid_request');
      const malformed = await client.json('/api/auth/signup', {
        method: 'POST',
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      assert.match(malformed.headers.get('content-type') ?? '', /application\/problem\+json/);
    });

    test('sign-in through the credentials provider with CSRF, as a browser does', async () => {
      const email = `signin-${Date.now()}@example.com`;
      await new Client(app.url).json('/api/auth/signup', { json: { email, password: 'my long password' } });

      const browser = new Client(app.url);
      const csrf = await browser.json('/api/auth/csrf');
      assert.equal(csrf.status, 200);
      const form = (password: string, csrfToken: string) =>
        new URLSearchParams({ email, password, csrfToken, callbackUrl: `${app.url}/` });

      const wrong = await browser.fetch('/api/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form('wrong password!', csrf.body.csrfToken),
      });
      assert.equal(wrong.status, 302);
      assert.match(wrong.headers.get('location') ?? '', /error=CredentialsSignin/);
      assert.equal(browser.cookies.has('authjs.session-token'), false);
      // A wrong password is an everyday event: at most one info line, never Auth.js's error with a stack.
      assert.doesNotMatch(app.output(), /\[auth\]\[error\]|CredentialsSignin: |at authorize/);

      const noCsrf = await browser.fetch('/api/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form('my long password', 'forged'),
      });
      assert.equal(browser.cookies.has('authjs.session-token'), false);
      assert.match(noCsrf.headers.get('location') ?? '', /error=MissingCSRF/);

      const ok = await browser.fetch('/api/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form('my long password', csrf.body.csrfToken),
      });
      assert.equal(ok.status, 302);
      assert.ok(browser.cookies.has('authjs.session-token'));
      const session = await browser.json('/api/auth/session');
      assert.equal(session.body.user.email, email);
      assert.equal((await browser.json('/api/v1/tokens')).status, 200);
    });

    test('ten wrong passwords refuse that account sign-in for a while, even with the right one', async () => {
      const email = `guess-${Date.now()}@example.com`;
      const other = `other-${Date.now()}@example.com`;
      for (const address of [email, other]) {
        await new Client(app.url).json('/api/auth/signup', {
          json: { email: address, password: 'my long password' },
        });
      }
      const browser = new Client(app.url);
      const csrf = (await browser.json('/api/auth/csrf')).body.csrfToken as string;
      const attempt = (who: string, password: string) =>
        browser.fetch('/api/auth/callback/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' },
          body: new URLSearchParams({ email: who, password, csrfToken: csrf, callbackUrl: `${app.url}/` }),
        });
      for (let i = 0; i < 10; i++) {
        assert.match((await attempt(email, `wrong password ${i}`)).headers.get('location') ?? '', /error=/);
      }
      const locked = await attempt(email, 'my long password');
      assert.match(locked.headers.get('location') ?? '', /error=CredentialsSignin/);
      assert.equal(browser.cookies.has('authjs.session-token'), false);

      const unaffected = await attempt(other, 'my long password');
      assert.doesNotMatch(unaffected.headers.get('location') ?? '', /error=/);
      assert.ok(browser.cookies.has('authjs.session-token'));
    });

    test('unauthenticated and bad bearer requests are 401 with WWW-Authenticate', async () => {
      const anonymous = new Client(app.url);
      for (const path of ['/api/v1/accounts', '/api/v1/posts', '/api/v1/tokens']) {
        const res = await anonymous.json(path);
        assert.equal(res.status, 401, path);
        assert.equal(res.body.code, 'unauthorized');
      }
      const bad = await anonymous.withToken('pw_not-a-real-token').json('/api/v1/posts');
      assert.equal(bad.status, 401);
      assert.match(bad.headers.get('www-authenticate') ?? '', /Bearer/);
    });

    test('tokens: created with a session only, listed without secrets, usable, revocable', async () => {
      const { client } = await signUp(app.url, 'tokens');
      const created = await client.json('/api/v1/tokens', { json: { name: 'laptop' } });
      assert.equal(created.status, 201);
      assert.match(created.body.token, /^pw_/);
      assert.equal(created.body.name, 'laptop');

      const api = client.withToken(created.body.token);
      assert.equal((await api.json('/api/v1/posts')).status, 200);
      const viaToken = await api.json('/api/v1/tokens', { json: { name: 'from token' } });
      assert.equal(viaToken.status, 403, 'creating a token needs a browser session');

      const list = await client.json('/api/v1/tokens');
      assert.equal(list.status, 200);
      const listed = list.body.tokens.find((t: { id: string }) => t.id === created.body.id);
      assert.ok(listed);
      assert.equal(listed.token, undefined);
      assert.ok(listed.lastUsedAt, 'last use is recorded');
      assert.ok(!JSON.stringify(list.body).includes(created.body.token));

      const invalid = await client.json('/api/v1/tokens', { json: { name: '' } });
      assert.equal(invalid.status, 422);
      assert.equal(invalid.body.errors[0].path, 'name');

      assert.equal(
        (await client.fetch(`/api/v1/tokens/${created.body.id}`, { method: 'DELETE' })).status,
        204,
      );
      assert.equal((await api.json('/api/v1/posts')).status, 401);
      assert.equal(
        (await client.fetch(`/api/v1/tokens/${created.body.id}`, { method: 'DELETE' })).status,
        404,
      );
      assert.equal((await client.fetch('/api/v1/tokens/not-a-uuid', { method: 'DELETE' })).status, 404);
    });

    test('session requests that change something must be same-origin', async () => {
      const { client } = await signUp(app.url, 'origin');
      client.origin = 'https://evil.example';
      const crossOrigin = await client.json('/api/v1/tokens', { json: { name: 'x' } });
      assert.equal(crossOrigin.status, 403);
      assert.equal(crossOrigin.body.code, 'forbidden');

      client.origin = undefined;
      const noOrigin = await client.json('/api/v1/tokens', { json: { name: 'x' } });
      assert.equal(noOrigin.status, 403);

      const crossSite = await client.json('/api/v1/tokens', {
        json: { name: 'x' },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(crossSite.status, 403);
      const sameSite = await client.json('/api/v1/tokens', {
        json: { name: 'x' },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(sameSite.status, 201);
      // Reads stay allowed without Origin.
      assert.equal((await client.json('/api/v1/tokens')).status, 200);
    });

    test('serves its OpenAPI description publicly', async () => {
      const res = await new Client(app.url).json('/openapi.json');
      assert.equal(res.status, 200);
      assert.equal(res.body.openapi, '3.1.0');
      for (const path of [
        '/api/v1/posts',
        '/api/v1/posts/{id}',
        '/api/v1/accounts',
        '/api/internal/scheduled-posts/dispatch',
        '/api/v1/mcp-clients',
        '/api/cli/whoami',
      ]) {
        assert.ok(res.body.paths[path], path);
      }
      assert.ok(
        res.body.components.schemas.SchedulerPostRequest,
        'the post request (the SDK’s PostRequest plus the Scheduler’s fields)',
      );
      assert.ok(res.body.components.schemas.ConnectedAccount);

      // Interactive docs: Scalar from our own server (no CDN), pointed at /openapi.json.
      const docs = await fetch(`${app.url}/docs`);
      assert.equal(docs.status, 200);
      const html = await docs.text();
      assert.match(html, /data-url="\/openapi.json"/);
      assert.doesNotMatch(html, /https?:\/\//);
      const script = await fetch(`${app.url}/docs/scalar.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
      assert.ok((await script.arrayBuffer()).byteLength > 100_000);
    });

    test("one user's token is another user's 404", async () => {
      const a = await userWithToken(app.url, 'a');
      const b = await userWithToken(app.url, 'b');
      const tokens = await a.session.json('/api/v1/tokens');
      const tokenId = tokens.body.tokens[0].id;
      assert.equal((await b.session.fetch(`/api/v1/tokens/${tokenId}`, { method: 'DELETE' })).status, 404);
      assert.equal((await b.api.fetch(`/api/v1/tokens/${tokenId}`, { method: 'DELETE' })).status, 404);
      assert.equal((await a.api.json('/api/v1/posts')).status, 200);
      const bList = await b.session.json('/api/v1/tokens');
      assert.ok(!bList.body.tokens.some((t: { id: string }) => t.id === tokenId));
    });

    // Last in this suite: it uses up the sign-in failures allowed from the tests' own address.
    test('without TRUST_PROXY, X-Forwarded-For cannot dodge the per-address sign-in limit', async () => {
      const email = `spoof-target-${Date.now()}@example.com`;
      await new Client(app.url).json('/api/auth/signup', { json: { email, password: 'my long password' } });
      const attempt = async (who: string, password: string, forwardedFor: string) => {
        const browser = new Client(app.url);
        const csrf = (await browser.json('/api/auth/csrf')).body.csrfToken as string;
        await browser.fetch('/api/auth/callback/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
          body: new URLSearchParams({ email: who, password, csrfToken: csrf, callbackUrl: `${app.url}/` }),
        });
        return browser.cookies.has('authjs.session-token');
      };
      for (let i = 0; i < 50; i++) {
        assert.equal(
          await attempt(`spray-${i}-${Date.now()}@example.com`, 'wrong password!', `198.18.${i}.1`),
          false,
        );
      }
      assert.equal(
        await attempt(email, 'my long password', '198.18.200.1'),
        false,
        'every attempt came from the same peer, whatever X-Forwarded-For claimed',
      );
    });
  });
}
