import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakePinterest, samplePng, startFakePinterest } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { type Client, signUp } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import {
  accountsOf,
  connectByOAuth,
  pick,
  pickerChoices,
  publishNow,
  scheduleAndDispatch,
} from './chat-platforms.helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

async function uploadPng(api: Client, altText?: string): Promise<Json> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'pin.png');
  const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
  // 200: the workspace already had these bytes and the media library answers that media (docs/media-library.md).
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return altText ? { ...res.body.media, altText } : res.body.media;
}

/*
 * Pinterest through the Scheduler over HTTP: OAuth against the fake with the board picker, the
 * board sections served by the option choices route, pins now and on schedule, the boards of one
 * login sharing one grant (so the refresh token Pinterest rotates keeps serving the second board),
 * and a revoked login marking every board needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Pinterest through the Scheduler (${backend})`, () => {
    let pinterest: FakePinterest;
    let app: RunningApp;
    before(async () => {
      pinterest = await startFakePinterest();
      app = await startApp(backend, pinterest.env());
    });
    after(async () => {
      await app?.stop();
      await pinterest?.close();
    });

    /** Connects the login and picks the first two boards. */
    async function connectBoards(client: Client): Promise<Json[]> {
      const landing = await connectByOAuth(client, 'pinterest');
      const { html, ids } = await pickerChoices(client, landing);
      assert.deepEqual(ids, ['549755885175', '549755885176', '549755885177']);
      assert.match(html, /Recipes/);
      assert.match(html, /Drafts/);
      assert.doesNotMatch(html, /pina_|pinr\./, 'no token on the page');
      const done = await pick(client, 'pinterest', landing, ['549755885175', '549755885176']);
      assert.equal(done.pathname, '/accounts');
      const accounts = await accountsOf(client, 'pinterest');
      assert.deepEqual(accounts.map((a) => a.platformAccountId).sort(), ['549755885175', '549755885176']);
      return ['549755885175', '549755885176'].map((id) => accounts.find((a) => a.platformAccountId === id));
    }

    test('pick boards, sections from the platform, pin now and on schedule', async () => {
      const { client } = await signUp(app.url, 'pinterest');
      const [recipes, travel] = await connectBoards(client);
      assert.ok(!JSON.stringify([recipes, travel]).includes('pina_'));

      const sections = await client.json(`/api/v1/accounts/${recipes.id}/options/boardSectionId`);
      assert.equal(sections.status, 200, JSON.stringify(sections.body));
      assert.deepEqual(sections.body.choices, [
        { value: '5027629787972154693', label: 'Desserts' },
        { value: '5027629787972154694', label: 'Mains' },
      ]);
      const none = await client.json(`/api/v1/accounts/${travel.id}/options/boardSectionId`);
      assert.deepEqual(none.body.choices, []);

      const image = await uploadPng(client, 'A slice of cake');
      const now = await publishNow(client, {
        message: 'Cake of the week',
        accountIds: [recipes.id],
        media: [image],
        accountOptions: {
          [recipes.id]: {
            title: 'Cake',
            link: 'https://example.com/cake',
            boardSectionId: '5027629787972154693',
          },
        },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const pin = pinterest.pins.find((p) => p.id === now.results[0].platformPostId)!;
      assert.deepEqual(
        [pin.boardId, pin.boardSectionId, pin.title, pin.description, pin.altText],
        ['549755885175', '5027629787972154693', 'Cake', 'Cake of the week', 'A slice of cake'],
      );
      assert.equal(pin.images[0]?.bytes, samplePng().length);

      const refused = await client.json('/api/v1/validation', {
        json: {
          message: 'x',
          accountIds: [travel.id],
          media: [image],
          accountOptions: { [travel.id]: { boardSectionId: '5027629787972154693' } },
        },
      });
      assert.deepEqual(
        refused.body.results[0].errors.map((e: Json) => e.code),
        ['option_not_offered'],
        'a section of another board',
      );

      const later = await scheduleAndDispatch(app, client, {
        message: 'Travel later',
        accountIds: [travel.id],
        media: [await uploadPng(client)],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(
        pinterest.pins.find((p) => p.id === later.results[0].platformPostId)?.boardId,
        '549755885176',
      );
    });

    test('the second Pinterest board keeps publishing after the first refreshed (rotated refresh token)', async () => {
      // Tokens that are due for renewal at every publish: each publish rotates the refresh token.
      pinterest.accessTokenTtlSeconds = 3600;
      // On PostgreSQL the second board publishes from another instance (same database and data
      // directory), which knows the rotation only from the login's shared grant in the database.
      const other =
        backend === 'postgres'
          ? await startApp('pglite', {
              ...pinterest.env(),
              DATABASE_URL: app.databaseUrl!,
              DATA_DIR: app.dataDir,
              // Its connection keeper sweeps once at start and would renew these hour-long tokens
              // too (they expire within its horizon): only the publishes' renewals are counted here.
              CREDENTIAL_REFRESH_INTERVAL_MS: '0',
            })
          : app;
      try {
        const { client } = await signUp(app.url, 'pinterest-rotation');
        const [recipes, travel] = await connectBoards(client);
        const refreshes = () =>
          pinterest.calls('/v5/oauth/token').filter((r) => (r.body as Json).grant_type === 'refresh_token');
        const before = refreshes().length;
        const first = await publishNow(client, {
          message: 'First board',
          accountIds: [recipes.id],
          media: [await uploadPng(client)],
        });
        assert.equal(first.status, 'posted', JSON.stringify(first.results));
        const second = await scheduleAndDispatch(other, client, {
          message: 'Second board',
          accountIds: [travel.id],
          media: [await uploadPng(client)],
        });
        assert.equal(second.status, 'posted', JSON.stringify(second.results));
        const made = refreshes().slice(before);
        assert.equal(made.length, 2, 'each publish renewed the token');
        assert.notEqual(
          (made[1]!.body as Json).refresh_token,
          (made[0]!.body as Json).refresh_token,
          'the second board renewed with the refresh token the first renewal answered',
        );
        assert.equal(pinterest.refusedRefreshes, 0);
        const statuses = (await accountsOf(client, 'pinterest')).map((a) => a.status);
        assert.deepEqual(statuses, ['active', 'active']);
      } finally {
        pinterest.accessTokenTtlSeconds = 30 * 86_400;
        if (other !== app) await other.stop();
      }
    });

    test('a revoked login marks every board needs_reconnect', async () => {
      const { client } = await signUp(app.url, 'pinterest-revoked');
      const [recipes, travel] = await connectBoards(client);
      pinterest.revokeAll();
      const failed = await publishNow(client, {
        message: 'No',
        accountIds: [recipes.id],
        media: [await uploadPng(client)],
      });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      for (const account of [recipes, travel]) {
        assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
      }
    });
  });
}
