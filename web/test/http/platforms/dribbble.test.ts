import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeDribbble, pngOfSize, startFakeDribbble } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { type Client, signUp } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { scheduleAndDispatch } from './support.ts';

/** What a browser does: us → Dribbble's consent (approves at once) → our callback. */
async function connect(client: Client, query = ''): Promise<URL> {
  const start = await client.fetch(`/api/v1/accounts/connect/dribbble${query}`);
  assert.equal(start.status, 302, await start.text());
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  assert.equal(consent.status, 302, await consent.text());
  const callback = new URL(consent.headers.get('location')!);
  assert.equal(callback.pathname, '/api/v1/accounts/connect/dribbble/callback');
  const done = await client.fetch(callback.pathname + callback.search);
  assert.equal(done.status, 302, await done.text());
  return new URL(done.headers.get('location')!);
}

async function uploadShot(client: Client, width: number, height: number) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(pngOfSize(width, height))], { type: 'image/png' }),
    'shot.png',
  );
  const res = await client.json('/api/v1/upload', { method: 'POST', body: form });
  // 200: the workspace already had these bytes and the media library answers that media (docs/media-library.md).
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body.media;
}

for (const backend of backends()) {
  describe(`Scheduler: Dribbble over HTTP (${backend})`, () => {
    let dribbble: FakeDribbble;
    let app: RunningApp;
    before(async () => {
      dribbble = await startFakeDribbble();
      dribbble.processingPolls = 1;
      app = await startApp(backend, dribbble.env());
    });
    after(async () => {
      await app?.stop();
      await dribbble?.close();
    });

    test('connects by OAuth, refuses a wrong-sized image, publishes now and a scheduled shot; a revoked token needs reconnecting', async () => {
      const { client } = await signUp(app.url, 'dribbble');
      const landing = await connect(client);
      assert.equal(landing.pathname, '/accounts');
      const accounts = (await client.json('/api/v1/accounts')).body.accounts.filter(
        (a: { platform: string }) => a.platform === 'dribbble',
      );
      assert.equal(accounts.length, 1);
      const account = accounts[0];
      assert.deepEqual(
        [account.platformAccountId, account.username, account.status],
        ['8421', 'alice', 'active'],
      );
      assert.equal(landing.searchParams.get('connected'), account.id);

      const square = await client.json('/api/v1/validation', {
        json: {
          message: 'x',
          accountIds: [account.id],
          media: [await uploadShot(client, 900, 900)],
          accountOptions: { [account.id]: { title: 'Square' } },
        },
      });
      assert.deepEqual(
        square.body.results[0].errors.map((e: { code: string }) => e.code),
        ['media_dimensions_invalid'],
      );

      const now = await client.json('/api/v1/posts', {
        json: {
          message: 'A plant dashboard.',
          accountIds: [account.id],
          postingMode: 'now',
          media: [await uploadShot(client, 800, 600)],
          accountOptions: { [account.id]: { title: 'Plant dashboard', tags: ['ui'] } },
        },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body.results));
      const shot = dribbble.shots.at(-1)!;
      assert.deepEqual(
        [shot.title, shot.description, shot.tags],
        ['Plant dashboard', 'A plant dashboard.', ['ui']],
      );
      assert.equal(now.body.results[0].platformPostId, String(shot.id));

      const later = await scheduleAndDispatch(app, client, {
        message: 'Later',
        accountIds: [account.id],
        media: [await uploadShot(client, 400, 300)],
        accountOptions: { [account.id]: { title: 'Scheduled shot' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.equal(dribbble.shots.at(-1)!.title, 'Scheduled shot');

      dribbble.revokeTokens();
      const refused = await client.json('/api/v1/posts', {
        json: {
          message: 'x',
          accountIds: [account.id],
          postingMode: 'now',
          media: [await uploadShot(client, 800, 600)],
          accountOptions: { [account.id]: { title: 'Refused' } },
        },
      });
      assert.equal(refused.body.status, 'failed', JSON.stringify(refused.body));
      assert.equal(refused.body.results[0].error.code, 'needs_reconnect');
      assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
      const again = await connect(client, `?accountId=${account.id}`);
      assert.equal(again.searchParams.get('connected'), account.id, again.toString());
      assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'active');
    });
  });
}
