import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../helpers/fixtures.ts';

/*
 * `GET /api/v1/accounts/{id}/options/{field}` through HTTP: the route registry's entry, the
 * caller's own accounts only, and 404 for an option whose choices do not come from the platform.
 * Choices themselves, caching, rate limits and refused tokens: test/server/accounts/option-choices.test.ts.
 */
for (const backend of backends()) {
  describe(`option choices over HTTP (${backend})`, () => {
    let env: TelegramApp;

    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(async () => {
      await env?.stop();
    });

    test('only the caller’s accounts, only fields with choices from the platform', async () => {
      const owner = await userWithToken(env.app.url, 'choices-owner');
      const account = await connectTelegram(owner.api);
      const path = `/api/v1/accounts/${account}/options/parseMode`;

      const anonymous = await fetch(`${env.app.url}${path}`);
      assert.equal(anonymous.status, 401);

      const fixed = await owner.api.fetch(path);
      assert.equal(fixed.status, 404, 'its choices are in the manifest, not loaded from the platform');
      assert.match(fixed.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal((await fixed.json()).code, 'not_found');

      const stranger = await userWithToken(env.app.url, 'choices-stranger');
      const foreign = await stranger.api.json(path);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found']);
      const unknown = await owner.api.json(`/api/v1/accounts/${crypto.randomUUID()}/options/parseMode`);
      assert.equal(unknown.status, 404);
    });

    test('the OpenAPI document describes the route', async () => {
      const response = await fetch(`${env.app.url}/openapi.json`);
      const document = await response.json();
      const operation = document.paths['/api/v1/accounts/{id}/options/{field}']?.get;
      assert.equal(operation?.operationId, 'listOptionChoices');
      for (const status of ['200', '404', '422', '429']) assert.ok(operation.responses[status], status);
      assert.match(operation.description, /option_not_offered/);
    });
  });
}
