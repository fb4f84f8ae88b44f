import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import {
  authorize,
  exchange,
  rawMcp,
  refresh,
  registerClient,
  type Tokens,
  tokenRequest,
} from '../helpers/oauth.ts';

/*
 * docs/mcp.md (OAuth endpoints): a refresh request the server refuses for its own parameters
 * (a resource other than /mcp, a scope wider than mcp) is the client's mistake, not a sign that
 * the token leaked: the refresh token stays usable, and the grant with it.
 */
for (const backend of backends()) {
  describe(`MCP OAuth refresh refusals (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('a refresh with a wrong resource or a wider scope is refused without spending the token', async () => {
      const app = env.app.url;
      const { client: browser } = await signUp(app, 'mcp-refresh');
      const clientId = await registerClient(app);
      const first = await exchange(app, clientId, await authorize(app, browser, clientId));
      assert.equal(first.status, 200);
      const tokens = (await first.json()) as Tokens;

      const wrongResource = await tokenRequest(app, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: tokens.refresh_token,
        resource: 'https://elsewhere.example/mcp',
      });
      assert.equal(wrongResource.status, 400);
      assert.equal((await wrongResource.json()).error, 'invalid_target');
      const widerScope = await tokenRequest(app, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: tokens.refresh_token,
        scope: 'mcp admin',
      });
      assert.equal(widerScope.status, 400);
      assert.equal((await widerScope.json()).error, 'invalid_scope');

      // Nothing was spent: the access token still works, and the refresh token rotates once.
      assert.equal((await rawMcp(app, tokens.access_token)).status, 200);
      const rotated = await refresh(app, clientId, tokens.refresh_token);
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const next = (await rotated.json()) as Tokens;
      assert.equal((await rawMcp(app, next.access_token)).status, 200);
      // …and only once (a second use still means it leaked).
      assert.equal((await refresh(app, clientId, tokens.refresh_token)).status, 400);
      assert.equal((await rawMcp(app, next.access_token)).status, 401);
    });
  });
}
