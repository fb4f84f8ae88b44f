import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decide } from '../cli-auth.helpers.ts';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

const redirectUri = 'https://assistant.example/oauth/callback';

/** Registers an MCP client and has `browser`'s user approve it; returns its client id and tokens. */
async function authorize(app: string, browser: Client, name: string) {
  const reg = await (
    await fetch(`${app}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri] }),
    })
  ).json();
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: reg.client_id,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${app}/mcp`,
    scope: 'mcp',
  });
  const { page, location } = await decide(browser, `/api/oauth/authorize?${query}`, 'approve');
  const code = new URL(location).searchParams.get('code');
  assert.ok(code, `approved: ${location}`);
  const tokens = await (
    await fetch(`${app}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: reg.client_id,
        redirect_uri: redirectUri,
        resource: `${app}/mcp`,
      }),
    })
  ).json();
  assert.ok(tokens.access_token, JSON.stringify(tokens));
  return { clientId: reg.client_id as string, tokens, page };
}

function mcpStatus(app: string, token: string): Promise<number> {
  return fetch(`${app}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  }).then((r) => r.status);
}

for (const backend of backends()) {
  describe(`connected MCP clients in settings (${backend})`, () => {
    let app: RunningApp;
    before(async () => {
      app = await startApp(backend);
    });
    after(() => app?.stop());

    test('the consent page is the product card; signed out it goes to /signin and back', async () => {
      const { client: browser } = await signUp(app.url, 'consent');
      const { page } = await authorize(app.url, browser, 'Looks Right');
      assert.match(page, /class="auth-card"/);
      assert.match(page, /Allow Looks Right to use your Postwave account\?/);
      assert.match(page, /assistant\.example/);

      const reg = await (
        await fetch(`${app.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'y', redirect_uris: [redirectUri] }),
        })
      ).json();
      const consent = `/oauth/consent?${new URLSearchParams({
        response_type: 'code',
        client_id: reg.client_id,
        redirect_uri: redirectUri,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`;
      const signedOut = await fetch(app.url + consent, { redirect: 'manual' });
      assert.ok([303, 307].includes(signedOut.status), String(signedOut.status));
      const location = new URL(signedOut.headers.get('location')!, app.url);
      assert.equal(location.pathname, '/signin');
      const back = new URL(location.searchParams.get('callbackUrl')!);
      assert.equal(back.origin, app.url);
      assert.equal(back.pathname, '/oauth/consent');
      assert.equal(back.searchParams.get('client_id'), reg.client_id);
      const signin = await fetch(app.url + location.pathname + location.search);
      assert.equal(signin.status, 200);
      assert.match(await signin.text(), /Sign in to continue connecting your app/);
    });

    test('lists the user’s clients and revokes one: its tokens stop working, others stay', async () => {
      const a = await signUp(app.url, 'mcp-owner');
      const b = await signUp(app.url, 'mcp-other');
      assert.deepEqual((await a.client.json('/api/v1/mcp-clients')).body, { clients: [] });

      const first = await authorize(app.url, a.client, 'Desk Assistant');
      const second = await authorize(app.url, a.client, 'Phone Assistant');
      const foreign = await authorize(app.url, b.client, 'Desk Assistant');

      const listed = await a.client.json('/api/v1/mcp-clients');
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.clients.map((c: { name: string }) => c.name).sort(), [
        'Desk Assistant',
        'Phone Assistant',
      ]);
      const desk = listed.body.clients.find((c: { clientId: string }) => c.clientId === first.clientId);
      assert.equal(desk.redirectHost, 'assistant.example');
      assert.ok(Date.parse(desk.connectedAt) <= Date.parse(desk.lastUsedAt));
      assert.ok(!JSON.stringify(listed.body).includes(first.tokens.access_token), 'no secrets listed');

      const settings = await a.client.fetch('/settings');
      const html = await settings.text();
      assert.match(html, /Desk Assistant/);
      assert.match(html, /Returns to (<!-- -->)?assistant\.example/);

      assert.equal(await mcpStatus(app.url, first.tokens.access_token), 200);
      // Another user cannot revoke a's client, and a bearer token cannot manage connections.
      const byOther = await b.client.fetch(
        `/api/v1/mcp-clients?${new URLSearchParams({ clientId: second.clientId })}`,
        { method: 'DELETE' },
      );
      assert.equal(byOther.status, 404);
      assert.equal((await a.client.fetch('/api/v1/mcp-clients', { method: 'DELETE' })).status, 400);

      const revoked = await a.client.fetch(
        `/api/v1/mcp-clients?${new URLSearchParams({ clientId: first.clientId })}`,
        { method: 'DELETE' },
      );
      assert.equal(revoked.status, 204);
      assert.equal(await mcpStatus(app.url, first.tokens.access_token), 401);
      const refresh = await fetch(`${app.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: first.tokens.refresh_token,
          client_id: first.clientId,
        }),
      });
      assert.equal(refresh.status, 400);
      assert.equal(await mcpStatus(app.url, second.tokens.access_token), 200, 'other clients keep working');
      assert.equal(await mcpStatus(app.url, foreign.tokens.access_token), 200, 'other users keep working');
      const after = await a.client.json('/api/v1/mcp-clients');
      assert.deepEqual(
        after.body.clients.map((c: { clientId: string }) => c.clientId),
        [second.clientId],
      );
      const again = await a.client.fetch(
        `/api/v1/mcp-clients?${new URLSearchParams({ clientId: first.clientId })}`,
        { method: 'DELETE' },
      );
      assert.equal(again.status, 404);

      const anonymous = await fetch(`${app.url}/api/v1/mcp-clients`);
      assert.equal(anonymous.status, 401);
    });
  });
}
