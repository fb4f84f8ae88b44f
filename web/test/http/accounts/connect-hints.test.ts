import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, type FakeX, startFakeTelegram, startFakeX } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { type Client, userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { bots } from '../../helpers/telegram-bots.ts';

/*
 * Contract F on the account paths: a platform's refusal while connecting carries a `hint` (one
 * sentence on what the person can do) on the problem and on its issue, as publish failures do;
 * the OAuth flow's failure link carries one too, and the OpenAPI document says where hints appear.
 */

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

/** A refusal of the account paths: its code, and the same plain hint at the top and on the issue. */
function assertHinted(res: { status: number; body: Json }, code: string, hint: RegExp): void {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
  assert.match(res.body.hint ?? '', hint, JSON.stringify(res.body));
  assert.ok(res.body.errors?.length > 0, JSON.stringify(res.body));
  for (const issue of res.body.errors) assert.equal(issue.hint, res.body.hint, JSON.stringify(issue));
}

for (const backend of backends()) {
  describe(`platform refusals on the account paths carry a hint (${backend})`, () => {
    let x: FakeX;
    let telegram: FakeTelegram;
    let app: RunningApp;
    let api: Client;
    let session: Client;

    before(async () => {
      x = await startFakeX();
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News', username: 'news' } },
      });
      app = await startApp(backend, { ...x.env(), TELEGRAM_API_URL: telegram.url });
      ({ api, session } = await userWithToken(app.url, 'hints'));
    });
    after(async () => {
      await app?.stop();
      await x?.close();
      await telegram?.close();
    });

    const connect = (body: Json) => api.json('/api/v1/accounts', { json: body });

    test('credentials the platform refuses: what to do with them', async () => {
      const refused = await connect({
        platform: 'x',
        platformAccountId: '1',
        credentials: { accessToken: 'nope' },
      });
      assertHinted(refused, 'credentials_invalid', /copy them again from the platform/);
      assert.equal(refused.body.errors[0].code, 'credentials_invalid');
      const wrongBot = await connect({
        platform: 'telegram',
        platformAccountId: '@news',
        credentials: { botToken: '999:nope' },
      });
      assertHinted(wrongBot, 'credentials_invalid', /copy them again from the platform/);
    });

    test('a target the platform cannot reach: check the address', async () => {
      const missing = await connect({
        platform: 'telegram',
        platformAccountId: '@missing',
        credentials: { botToken: bots.main.token },
      });
      assertHinted(missing, 'target_unreachable', /check the address/);
      // The platform's own words stay in the message.
      assert.match(missing.body.errors[0].message, /@missing/);
      // A host the user typed that the policy refuses: the same plain hint.
      const privateHost = await connect({
        platform: 'mastodon',
        credentials: { instanceUrl: 'https://10.0.0.1', accessToken: 'token' },
      });
      assertHinted(privateHost, 'target_unreachable', /check the address/);
    });

    test('credentials without a field the platform needs say what to do', async () => {
      const shape = await connect({ platform: 'telegram', platformAccountId: '@news', credentials: {} });
      assert.equal(shape.status, 422);
      assert.equal(shape.body.code, 'credentials_invalid');
      assert.match(shape.body.hint ?? '', /copy them again/);
    });

    test('a refused OAuth sign-in: the accounts page link carries the hint the page shows', async () => {
      x.server.inject({ path: /\/2\/oauth2\/token$/, status: 400, json: { error: 'invalid_grant' } });
      const start = await session.fetch('/api/v1/accounts/connect/x');
      assert.equal(start.status, 302, await start.text());
      const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      const callback = new URL(consent.headers.get('location')!);
      const done = await session.fetch(callback.pathname + callback.search);
      assert.equal(done.status, 302, await done.text());
      const landing = new URL(done.headers.get('location')!);
      assert.equal(landing.pathname, '/accounts');
      assert.equal(landing.searchParams.get('error'), 'credentials_invalid', landing.toString());
      const hint = landing.searchParams.get('hint') ?? '';
      assert.match(hint, /refused the sign-in/);
      const page = await (await session.fetch(landing.pathname + landing.search)).text();
      assert.ok(page.includes(hint), 'the page shows the same hint');
    });

    test('the OpenAPI document gives problems and their issues a hint', async () => {
      const { body } = await api.json('/openapi.json');
      const schemas = body.components.schemas;
      assert.equal(schemas.Problem.properties.hint?.type, 'string');
      assert.equal(schemas.ProblemIssue.properties.hint?.type, 'string');
      assert.equal(schemas.ConnectedAccount.properties.healthHint?.type, 'string');
      assert.match(body.paths['/api/v1/accounts'].post.description, /hint/);
    });
  });
}
