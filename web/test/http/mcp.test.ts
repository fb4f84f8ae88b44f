import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decide } from '../cli-auth.helpers.ts';
import { Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import {
  authorize,
  connect,
  exchange,
  rawMcp,
  refresh,
  registerClient,
  type Tokens,
} from '../helpers/oauth.ts';

/** A tool's structured JSON, read field by field: the tests assert its shape. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type ToolJson = any;

for (const backend of backends()) {
  describe(`MCP with OAuth (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('discovery metadata and the 401 challenge', async () => {
      const res = await rawMcp(env.app.url, undefined);
      assert.equal(res.status, 401);
      // RFC 6750 §3.1: no credentials, no error code (neither in the challenge nor in the body).
      const challenge = `Bearer realm="postwave", resource_metadata="${env.app.url}/.well-known/oauth-protected-resource/mcp"`;
      assert.equal(res.headers.get('www-authenticate'), challenge);
      const body = await res.json();
      assert.equal(body.code, 'unauthorized');
      assert.equal(body.error, undefined);
      assert.equal(body.error_description, undefined);
      // Another scheme is no bearer credential either: the same plain challenge.
      const basic = await fetch(`${env.app.url}/mcp`, {
        method: 'POST',
        headers: { authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(basic.status, 401);
      assert.equal(basic.headers.get('www-authenticate'), challenge);
      assert.equal((await basic.json()).error, undefined);
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const prm = await (await fetch(env.app.url + path)).json();
        assert.equal(prm.resource, `${env.app.url}/mcp`);
        assert.deepEqual(prm.authorization_servers, [env.app.url]);
      }
      const as = await (await fetch(`${env.app.url}/.well-known/oauth-authorization-server`)).json();
      assert.equal(as.issuer, env.app.url);
      assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
      assert.equal(as.registration_endpoint, `${env.app.url}/api/oauth/register`);
    });

    test('SDK client: register, consent, token, tools; a post reaches Telegram; refresh rotates', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp');
      const accountId = await connectTelegram(browser);
      const { client, provider, page } = await connect(env.app.url, browser);
      assert.match(page, /Test MCP client/);
      assert.match(page, /127\.0\.0\.1:53682/);
      assert.match(page, /mcp/);

      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      for (const name of [
        'create_post',
        'delete_post',
        'get_post',
        'list_accounts',
        'list_posts',
        'presign_upload',
        'publish_post',
        'schedule_post',
        'update_post',
        'upload_media_from_url',
        'validate_post',
      ]) {
        assert.ok(names.includes(name), name);
      }
      const accounts = await client.callTool({ name: 'list_accounts', arguments: {} });
      assert.equal((accounts.structuredContent as ToolJson).accounts[0].id, accountId);

      const created = await client.callTool({
        name: 'create_post',
        arguments: { message: 'Hello from MCP', accountIds: [accountId], postingMode: 'now' },
      });
      assert.equal(created.isError, undefined);
      const post = created.structuredContent as ToolJson;
      assert.equal(post.status, 'posted');
      assert.equal(env.telegram.sent.at(-1)!.text, 'Hello from MCP');

      const draft = (
        await client.callTool({
          name: 'create_post',
          arguments: { message: 'draft', accountIds: [accountId], postingMode: 'draft' },
        })
      ).structuredContent as ToolJson;
      const listed = (await client.callTool({ name: 'list_posts', arguments: { limit: 1 } }))
        .structuredContent as ToolJson;
      assert.equal(listed.posts[0].id, draft.id);
      assert.ok(listed.nextCursor);
      const updated = (
        await client.callTool({ name: 'update_post', arguments: { id: draft.id, message: 'edited' } })
      ).structuredContent as ToolJson;
      assert.equal(updated.message, 'edited');
      const published = (await client.callTool({ name: 'publish_post', arguments: { id: draft.id } }))
        .structuredContent as ToolJson;
      assert.equal(published.status, 'posted');

      const refused = await client.callTool({ name: 'delete_post', arguments: { id: post.id } });
      assert.equal(refused.isError, true);
      assert.equal((refused.structuredContent as ToolJson).error.code, 'invalid_status');

      const ssrf = await client.callTool({
        name: 'upload_media_from_url',
        arguments: { url: 'http://169.254.169.254/latest/meta-data' },
      });
      assert.equal(ssrf.isError, true);
      const plainHttp = await client.callTool({
        name: 'upload_media_from_url',
        arguments: { url: 'http://example.com/photo.png' },
      });
      assert.equal(plainHttp.isError, true);
      const httpError = (plainHttp.structuredContent as ToolJson).error;
      assert.equal(httpError.status, 422);
      assert.equal(httpError.code, 'validation_failed');
      assert.deepEqual(
        httpError.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [['url', 'url_not_allowed']],
      );
      assert.match((plainHttp.content as ToolJson)[0].text, /Only https/);
      const ssrf2 = await client.callTool({
        name: 'upload_media_from_url',
        arguments: { url: 'https://127.0.0.1/x.png' },
      });
      assert.equal(ssrf2.isError, true);
      assert.match((ssrf2.content as ToolJson)[0].text, /loopback/);

      const invalid = await client.callTool({
        name: 'validate_post',
        arguments: { message: 'x'.repeat(5000), accountIds: [accountId] },
      });
      assert.equal((invalid.structuredContent as ToolJson).valid, false);

      // Refresh: rotation, then reuse of the old refresh token revokes the family.
      const old = provider.saved!;
      const form = (extra: Record<string, string>) =>
        fetch(`${env.app.url}/api/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: provider.info!.client_id, ...extra }),
        });
      const refreshed = await form({ grant_type: 'refresh_token', refresh_token: old.refresh_token! });
      assert.equal(refreshed.status, 200);
      const fresh = await refreshed.json();
      assert.notEqual(fresh.refresh_token, old.refresh_token);
      assert.equal((await rawMcp(env.app.url, old.access_token)).status, 401, 'the rotated pair is gone');
      assert.equal((await rawMcp(env.app.url, fresh.access_token)).status, 200);
      const reuse = await form({ grant_type: 'refresh_token', refresh_token: old.refresh_token! });
      assert.equal(reuse.status, 400);
      assert.equal((await reuse.json()).error, 'invalid_grant');
      assert.equal((await rawMcp(env.app.url, fresh.access_token)).status, 401, 'reuse revoked the family');
    });

    test('tools take thread, overrides, firstComment and altText; rules list each platform feature', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-composer');
      const accountId = await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);
      const call = async (name: string, args: Record<string, unknown>) =>
        // biome-ignore lint/suspicious/noExplicitAny: the tools' structured JSON, read field by field
        (await client.callTool({ name, arguments: args })).structuredContent as any;

      const rules = await call('get_platform_rules', { accountIds: [accountId] });
      assert.deepEqual(rules.accounts[0].features, { thread: true, firstComment: false, altText: null });
      const invalid = await call('validate_post', {
        message: 'one',
        accountIds: [accountId],
        thread: [{ message: 'two' }],
        accountOptions: { [accountId]: { firstComment: 'not here' } },
      });
      assert.equal(invalid.valid, false);
      assert.deepEqual(
        invalid.results[0].errors.map((e: { code: string }) => e.code),
        ['first_comment_unsupported'],
      );
      const created = await call('create_post', {
        message: 'MCP thread one',
        accountIds: [accountId],
        postingMode: 'now',
        thread: [{ message: 'MCP thread two' }],
        overrides: { [accountId]: { message: 'MCP version one' } },
      });
      assert.equal(created.status, 'posted');
      assert.deepEqual(
        created.results[0].parts.map((p: { status: string }) => p.status),
        ['posted', 'posted'],
      );
      assert.deepEqual(
        env.telegram.sent.slice(-2).map((m) => m.text),
        ['MCP version one', 'MCP thread two'],
      );
      const draft = await call('create_post', {
        message: 'd',
        accountIds: [accountId],
        postingMode: 'draft',
      });
      const updated = await call('update_post', { id: draft.id, thread: [{ message: 'later part' }] });
      assert.deepEqual(updated.thread, [{ message: 'later part', media: [] }]);
    });

    test('revoked, foreign-audience and bogus tokens are refused; tools act only as the token user', async () => {
      const a = await signUp(env.app.url, 'mcp-a');
      const b = await signUp(env.app.url, 'mcp-b');
      const accountId = await connectTelegram(a.client, '@updates');
      const ca = await connect(env.app.url, a.client);
      const cb = await connect(env.app.url, b.client);
      const draft = (
        await ca.client.callTool({
          name: 'create_post',
          arguments: { message: 'mine', accountIds: [accountId], postingMode: 'draft' },
        })
      ).structuredContent as ToolJson;
      const foreign = await cb.client.callTool({ name: 'get_post', arguments: { id: draft.id } });
      assert.equal(foreign.isError, true);
      assert.equal((foreign.structuredContent as ToolJson).error.code, 'not_found');
      const foreignDelete = await cb.client.callTool({ name: 'delete_post', arguments: { id: draft.id } });
      assert.equal((foreignDelete.structuredContent as ToolJson).error.code, 'not_found');

      const bogus = await rawMcp(env.app.url, 'pwo_not-a-token');
      assert.equal(bogus.status, 401);
      assert.match(
        bogus.headers.get('www-authenticate')!,
        /^Bearer realm="postwave", resource_metadata="[^"]+", error="invalid_token", error_description="[^"]+"$/,
      );
      // A problem like every error (contract B), with OAuth's members beside its own.
      assert.match(bogus.headers.get('content-type')!, /^application\/problem\+json/);
      const refused = await bogus.json();
      assert.equal(refused.code, 'unauthorized');
      assert.equal(refused.status, 401);
      assert.equal(refused.error, 'invalid_token');
      assert.equal(refused.error_description, refused.detail);

      // OAuth tokens are bound to /mcp: not accepted on the REST API.
      const rest = await new Client(env.app.url)
        .withToken(ca.provider.saved!.access_token)
        .json('/api/v1/posts');
      assert.equal(rest.status, 401);

      const revoke = await fetch(`${env.app.url}/api/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: ca.provider.saved!.access_token,
          client_id: ca.provider.info!.client_id,
        }),
      });
      assert.equal(revoke.status, 200);
      assert.equal((await rawMcp(env.app.url, ca.provider.saved!.access_token)).status, 401);
    });

    test('a reused refresh token revokes its own family only, not another authorization of the same client', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-family');
      const clientId = await registerClient(env.app.url);
      const tokens = async () => {
        const res = await exchange(env.app.url, clientId, await authorize(env.app.url, browser, clientId));
        assert.equal(res.status, 200);
        return (await res.json()) as Tokens;
      };
      const a1 = await tokens();
      const b1 = await tokens();
      assert.equal((await rawMcp(env.app.url, a1.access_token)).status, 200);
      assert.equal((await rawMcp(env.app.url, b1.access_token)).status, 200);

      // Family A rotates twice, then its first refresh token shows up again.
      const a2 = (await (await refresh(env.app.url, clientId, a1.refresh_token)).json()) as Tokens;
      const a3res = await refresh(env.app.url, clientId, a2.refresh_token);
      assert.equal(a3res.status, 200);
      const a3 = (await a3res.json()) as Tokens;
      const reuse = await refresh(env.app.url, clientId, a1.refresh_token);
      assert.equal(reuse.status, 400);
      assert.equal((await reuse.json()).error, 'invalid_grant');
      assert.equal(
        (await rawMcp(env.app.url, a3.access_token)).status,
        401,
        'the live end of family A is revoked',
      );
      assert.equal((await refresh(env.app.url, clientId, a3.refresh_token)).status, 400);

      // Family B (same user, same client, another authorization) is untouched.
      assert.equal((await rawMcp(env.app.url, b1.access_token)).status, 200);
      const b2 = await refresh(env.app.url, clientId, b1.refresh_token);
      assert.equal(b2.status, 200);
      assert.equal((await rawMcp(env.app.url, ((await b2.json()) as Tokens).access_token)).status, 200);

      // Revoking a refresh token (RFC 7009) ends its family too.
      const c1 = await tokens();
      const c2 = (await (await refresh(env.app.url, clientId, c1.refresh_token)).json()) as Tokens;
      const revoke = await fetch(`${env.app.url}/api/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: c2.refresh_token, client_id: clientId }),
      });
      assert.equal(revoke.status, 200);
      assert.equal((await rawMcp(env.app.url, c2.access_token)).status, 401);
    });

    test('an authorization code presented twice is refused and revokes the tokens issued from it', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-replay');
      const clientId = await registerClient(env.app.url);
      const grant = await authorize(env.app.url, browser, clientId);
      const first = await exchange(env.app.url, clientId, grant);
      assert.equal(first.status, 200);
      const t1 = (await first.json()) as Tokens;
      const rotated = await refresh(env.app.url, clientId, t1.refresh_token);
      assert.equal(rotated.status, 200);
      const t2 = (await rotated.json()) as Tokens;
      assert.equal((await rawMcp(env.app.url, t2.access_token)).status, 200);

      // An unrelated authorization of the same client and user.
      const other = (await (
        await exchange(env.app.url, clientId, await authorize(env.app.url, browser, clientId))
      ).json()) as Tokens;

      const replay = await exchange(env.app.url, clientId, grant);
      assert.equal(replay.status, 400);
      const body = await replay.json();
      assert.equal(body.error, 'invalid_grant');
      assert.equal(body.access_token, undefined);
      assert.equal(
        (await rawMcp(env.app.url, t2.access_token)).status,
        401,
        'tokens from the code are revoked',
      );
      assert.equal((await refresh(env.app.url, clientId, t2.refresh_token)).status, 400);
      assert.equal((await rawMcp(env.app.url, other.access_token)).status, 200, 'other grants live on');
    });

    test('authorization requests: exact redirect URIs, S256 only, resource must be /mcp', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-authz');
      const reg = await (
        await fetch(`${env.app.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'x', redirect_uris: ['https://app.example/cb'] }),
        })
      ).json();
      assert.equal(reg.token_endpoint_auth_method, 'none');
      const bad = await fetch(`${env.app.url}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }),
      });
      assert.equal(bad.status, 400);
      const base = {
        response_type: 'code',
        client_id: reg.client_id,
        redirect_uri: 'https://app.example/cb',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 's',
      };
      const q = (o: Record<string, string>) =>
        `/api/oauth/authorize?${new URLSearchParams({ ...base, ...o })}`;
      const prefix = await browser.fetch(q({ redirect_uri: 'https://app.example/cb/extra' }));
      assert.equal(prefix.status, 400, 'no redirect to an unregistered URI');
      const denied = await decide(browser, q({}), 'deny');
      assert.equal(new URL(denied.location).searchParams.get('error'), 'access_denied');
      assert.equal(new URL(denied.location).host, 'app.example', 'after consent the client hears the answer');
    });

    test('authorization errors before consent are shown on a page, never redirected (RFC 9700 §4.11.2)', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-open-redirect');
      const anonymous = new Client(env.app.url);
      // Registration is open: an attacker registers their own page as the redirect URI.
      const reg = await (
        await fetch(`${env.app.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'Phish', redirect_uris: ['https://attacker.example/landing'] }),
        })
      ).json();
      const base = {
        response_type: 'code',
        client_id: reg.client_id,
        redirect_uri: 'https://attacker.example/landing',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        scope: 'mcp',
        state: 's',
      };
      const q = (o: Record<string, string>) =>
        `/api/oauth/authorize?${new URLSearchParams({ ...base, ...o })}`;
      const cases: Record<string, string> = {
        'unknown client': q({ client_id: 'pwclient_unknown' }),
        'bad redirect URI': q({ redirect_uri: 'https://attacker.example/other' }),
        'plain PKCE': q({ code_challenge_method: 'plain' }),
        'malformed challenge': q({ code_challenge: 'short' }),
        'bad scope': q({ scope: 'admin' }),
        'other resource': q({ resource: 'https://other.example/mcp' }),
        'unsupported response_type': q({ response_type: 'token' }),
      };
      for (const [name, path] of Object.entries(cases)) {
        for (const who of [browser, anonymous]) {
          const res = await who.fetch(path);
          assert.equal(res.status, 400, name);
          assert.equal(res.headers.get('location'), null, `${name}: no redirect`);
          assert.match(res.headers.get('content-type') ?? '', /text\/html/, name);
          const html = await res.text();
          assert.match(html, /cannot continue/, name);
          assert.doesNotMatch(html, /attacker\.example\/landing\?/, name);
        }
        const consent = await browser.fetch(path.replace('/api/oauth/authorize', '/oauth/consent'));
        assert.doesNotMatch(await consent.text(), /name="decision"/, `${name}: no consent form`);
      }
      // A valid request reaches the consent page, which names the client and its redirect host.
      const ok = await browser.fetch(q({}));
      assert.equal(ok.status, 303);
      const consentPath = new URL(ok.headers.get('location')!, env.app.url);
      assert.equal(consentPath.pathname, '/oauth/consent');
      const page = await (await browser.fetch(`${consentPath.pathname}${consentPath.search}`)).text();
      assert.match(page, /Phish/);
      assert.match(page, /attacker\.example/);
    });
  });
}
