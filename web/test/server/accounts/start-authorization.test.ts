import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { platformModules } from '@postwave/shared';
import { eq } from 'drizzle-orm';
import { ConnectError, finishConnect, startConnect } from '#server/accounts/oauth-connect.ts';
import type { AppContext } from '#server/context.ts';
import { connectStates } from '#server/db/schema.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import {
  type FakeLogin,
  loginPlatformId,
  loginPlatformModule,
  startFakeLogin,
} from '../../helpers/login-platform.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * A connector that needs a server call before consent (an OAuth 1.0a request token): the flow
 * awaits `startAuthorization`, keeps the secret it returns encrypted with the state, and hands it
 * back to `exchangeCode` with the callback's whole query. A test-only connector in the 1.0a shape.
 */
for (const backend of backends()) {
  describe(`connectors with a request-token leg (${backend})`, () => {
    let fake: FakeLogin;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;

    before(async () => {
      fake = await startFakeLogin();
      harness = await startServices(backend, {}, 1, {
        platforms: [...platformModules, loginPlatformModule(fake, { requestToken: true })],
      });
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `leg-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
    });
    after(async () => {
      await harness?.stop();
      await fake?.close();
    });

    test('the request token is fetched before consent and its secret reaches the exchange', async () => {
      const url = new URL(await startConnect(ctx, workspaceId, loginPlatformId));
      assert.match(url.searchParams.get('oauth_token') ?? '', /^rqt-/);
      const asked = fake.server.requests.find((r) => r.path === '/oauth/request_token');
      assert.ok(asked, 'the server call happened before the browser was sent on');
      // Stored encrypted with the state, never in the clear.
      const [state] = await ctx.db
        .select()
        .from(connectStates)
        .where(eq(connectStates.workspaceId, workspaceId));
      assert.ok(state?.secret);
      assert.doesNotMatch(state.secret, /rqs-/);

      const approved = await fetch(url, { redirect: 'manual' });
      const callback = new URL(approved.headers.get('location')!);
      assert.ok(callback.searchParams.get('oauth_verifier'));
      assert.equal(callback.searchParams.get('code'), null, 'OAuth 1.0a answers a verifier, not a code');
      const outcome = await finishConnect(ctx, workspaceId, loginPlatformId, callback.searchParams);
      assert.equal(outcome.kind, 'pick', 'the exchange used the secret and the oauth_token from the query');
      const exchange = fake.server.requests.findLast((r) => r.path === '/oauth/token');
      assert.ok(exchange);
      assert.equal((exchange.body as Record<string, string>).grant_type, 'request_token');
    });

    test('a platform failure before consent is a connect error the accounts page shows', async () => {
      const states = async () => (await ctx.db.select().from(connectStates)).length;
      const before = await states();
      fake.server.inject({ path: /request_token/, status: 503, json: { error: 'down' } });
      await assert.rejects(startConnect(ctx, workspaceId, loginPlatformId), (error: unknown) => {
        assert.ok(error instanceof ConnectError);
        assert.equal(error.code, 'provider_error');
        assert.match(error.message, /could not be reached/);
        return true;
      });
      assert.equal(await states(), before, 'no state is kept for a flow that never started');
    });
  });
}
