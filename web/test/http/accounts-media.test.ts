import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import pg from 'pg';
import { Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

function pngForm(bytes = samplePng(), type = 'image/png', name = 'photo.png'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

for (const backend of backends()) {
  describe(`accounts, media and validation (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend, { MAX_UPLOAD_BYTES: String(64 * 1024) });
    });
    after(() => env?.stop());

    test('connects a Telegram channel after verifying the credentials; never returns them', async () => {
      const { api } = await userWithToken(env.app.url);
      const res = await api.json('/api/v1/accounts', {
        json: {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.platform, 'telegram');
      assert.equal(res.body.platformAccountId, '@news');
      assert.equal(res.body.label, 'News');
      assert.equal(res.body.username, 'news');
      assert.equal(res.body.credentials, undefined);
      const list = await api.json('/api/v1/accounts');
      assert.equal(list.status, 200);
      assert.equal(list.body.accounts.length, 1);
      assert.ok(!JSON.stringify(list.body).includes(bots.main.token));

      const again = await api.json('/api/v1/accounts', {
        json: {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
          label: 'Mine',
        },
      });
      assert.equal(
        again.status,
        201,
        'reconnecting the same channel updates it (201, as a first connection)',
      );
      assert.equal(again.body.id, res.body.id);
      assert.equal(again.body.label, 'Mine');
    });

    test('bad credentials, unreachable chats and unknown platforms are 422', async () => {
      const { api } = await userWithToken(env.app.url);
      const wrongToken = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', platformAccountId: '@news', credentials: { botToken: '999:nope' } },
      });
      assert.equal(wrongToken.status, 422);
      assert.equal(wrongToken.body.code, 'credentials_invalid');
      assert.ok(!JSON.stringify(wrongToken.body).includes('999:nope'));
      const badShape = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', platformAccountId: '@news', credentials: { token: 'x' } },
      });
      assert.equal(badShape.status, 422);
      assert.equal(badShape.body.code, 'credentials_invalid');
      const unreachable = await api.json('/api/v1/accounts', {
        json: {
          platform: 'telegram',
          platformAccountId: '@nowhere',
          credentials: { botToken: bots.main.token },
        },
      });
      assert.equal(unreachable.status, 422);
      assert.equal(unreachable.body.code, 'target_unreachable');
      // Telegram's API is the operator's host: its own words say what to fix.
      assert.match(unreachable.body.detail, /@nowhere/);
      const unknown = await api.json('/api/v1/accounts', { json: { platform: 'myspace', credentials: {} } });
      assert.equal(unknown.status, 422);
      const malformed = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', credentials: 'x' },
      });
      assert.equal(malformed.status, 400);
      assert.equal((await api.json('/api/v1/accounts')).body.accounts.length, 0);
    });

    test('rename and disconnect; another user gets 404 on every account route', async () => {
      const a = await userWithToken(env.app.url, 'a');
      const b = await userWithToken(env.app.url, 'b');
      const id = await connectTelegram(a.api);
      const renamed = await a.api.json(`/api/v1/accounts/${id}`, {
        method: 'PATCH',
        json: { label: 'Company news' },
      });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.label, 'Company news');

      assert.equal((await b.api.json(`/api/v1/accounts/${id}`)).status, 404);
      assert.equal(
        (await b.api.json(`/api/v1/accounts/${id}`, { method: 'PATCH', json: { label: 'x' } })).status,
        404,
      );
      assert.equal((await b.api.fetch(`/api/v1/accounts/${id}`, { method: 'DELETE' })).status, 404);
      assert.equal((await b.api.json('/api/v1/accounts')).body.accounts.length, 0);
      const post = await b.api.json('/api/v1/posts', {
        json: { message: 'hi', accountIds: [id], postingMode: 'now' },
      });
      assert.equal(post.status, 422);
      assert.equal(post.body.errors[0].code, 'account_not_found');
      assert.equal(env.telegram.sent.filter((m) => m.text === 'hi').length, 0);

      assert.equal((await a.api.fetch(`/api/v1/accounts/${id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await a.api.json(`/api/v1/accounts/${id}`)).status, 404);
      assert.equal((await a.api.json('/api/v1/accounts/not-a-uuid')).status, 404);
    });

    test('disconnecting an account drops it from scheduled posts; a post left without targets becomes a draft', async () => {
      const { api } = await userWithToken(env.app.url);
      const news = await connectTelegram(api, '@news');
      const updates = await connectTelegram(api, '@updates');
      const at = new Date(Date.now() + 3600_000).toISOString();
      const both = await api.json('/api/v1/posts', {
        json: { message: 'both', accountIds: [news, updates], postingMode: 'schedule', scheduledAt: at },
      });
      const single = await api.json('/api/v1/posts', {
        json: { message: 'single', accountIds: [news], postingMode: 'schedule', scheduledAt: at },
      });
      assert.equal(both.status, 201);
      assert.equal((await api.fetch(`/api/v1/accounts/${news}`, { method: 'DELETE' })).status, 204);
      const afterBoth = await api.json(`/api/v1/posts/${both.body.id}`);
      assert.deepEqual(afterBoth.body.accountIds, [updates]);
      assert.equal(afterBoth.body.status, 'scheduled');
      const afterSingle = await api.json(`/api/v1/posts/${single.body.id}`);
      assert.deepEqual(afterSingle.body.accountIds, []);
      assert.equal(afterSingle.body.status, 'draft');
    });

    // PGlite belongs to the running app process; the service tests under web/test/server/ read it directly.
    if (backend === 'postgres') {
      test('credentials are encrypted at rest in the database', async () => {
        const { api } = await userWithToken(env.app.url);
        await connectTelegram(api, '@updates', bots.second);
        const client = new pg.Client({ connectionString: env.app.databaseUrl! });
        await client.connect();
        try {
          const { rows } = await client.query('SELECT credentials FROM accounts');
          assert.ok(rows.length > 0);
          for (const row of rows) {
            assert.ok(!row.credentials.includes(bots.second.token));
            assert.ok(!row.credentials.includes('botToken'));
            assert.match(row.credentials, /^v1\./);
          }
        } finally {
          await client.end();
        }
      });
    }

    test('upload streams a file and returns a media object served at /media/{key}', async () => {
      const { api } = await userWithToken(env.app.url);
      const res = await api.json('/api/v1/upload', { method: 'POST', body: pngForm() });
      assert.equal(res.status, 201);
      const media = res.body.media;
      assert.equal(media.contentType, 'image/png');
      assert.equal(media.size, samplePng().length);
      assert.equal(media.storage, 'local');
      assert.equal(media.url, `${env.app.url}/media/${media.key}`);
      const served = await fetch(media.url);
      assert.equal(served.status, 200);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), samplePng());
      assert.equal((await fetch(`${env.app.url}/media/nope-${media.key}`)).status, 404);
    });

    test('upload refuses wrong types and bodies that are not multipart (415), oversize files (413) and malformed requests (400)', async () => {
      const { api } = await userWithToken(env.app.url);
      const text = await api.json('/api/v1/upload', {
        method: 'POST',
        body: pngForm(Buffer.from('hello world, plain text'), 'text/plain', 'a.txt'),
      });
      assert.equal(text.status, 415);
      const mismatch = await api.json('/api/v1/upload', {
        method: 'POST',
        body: pngForm(samplePng(), 'image/jpeg', 'a.jpg'),
      });
      assert.equal(mismatch.status, 415);
      const big = Buffer.concat([samplePng(), Buffer.alloc(128 * 1024)]);
      const tooLarge = await api.json('/api/v1/upload', { method: 'POST', body: pngForm(big) });
      assert.equal(tooLarge.status, 413);
      // A body that is not multipart is the wrong media type; a multipart body without its file is 400.
      const notMultipart = await api.json('/api/v1/upload', { method: 'POST', json: { file: 'x' } });
      assert.equal(notMultipart.status, 415);
      assert.equal(notMultipart.body.code, 'unsupported_media_type');
      const noFile = new FormData();
      noFile.append('caption', 'no file here');
      const withoutFile = await api.json('/api/v1/upload', { method: 'POST', body: noFile });
      assert.equal(withoutFile.status, 400);
      assert.equal(withoutFile.body.code, 'invalid_request');
      const anonymous = await new Client(env.app.url).json('/api/v1/upload', {
        method: 'POST',
        body: pngForm(),
      });
      assert.equal(anonymous.status, 401);
    });

    test('presign signs a self-upload URL that accepts exactly the declared bytes once', async () => {
      const { api } = await userWithToken(env.app.url);
      const bytes = samplePng();
      const res = await api.json('/api/v1/upload/presign', {
        json: { filename: 'cover.png', contentType: 'image/png', size: bytes.length },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.method, 'PUT');
      const { uploadUrl, headers, media } = res.body;
      const wrongLength = await fetch(uploadUrl, {
        method: 'PUT',
        headers,
        body: new Uint8Array(Buffer.concat([bytes, Buffer.from('x')])),
      });
      assert.ok(wrongLength.status >= 400 && wrongLength.status < 500);
      const tampered = await fetch(uploadUrl.replace(/signature=[^&]+/, 'signature=AAAA'), {
        method: 'PUT',
        headers,
        body: new Uint8Array(bytes),
      });
      assert.ok(tampered.status >= 400 && tampered.status < 500);
      const put = await fetch(uploadUrl, { method: 'PUT', headers, body: new Uint8Array(bytes) });
      assert.equal(put.status, 201);
      const again = await fetch(uploadUrl, { method: 'PUT', headers, body: new Uint8Array(bytes) });
      assert.ok(again.status >= 400 && again.status < 500);
      const served = await fetch(media.url);
      assert.equal(served.status, 200);

      const tooBig = await api.json('/api/v1/upload/presign', {
        json: { filename: 'x.png', contentType: 'image/png', size: 10_000_000 },
      });
      assert.equal(tooBig.status, 413);
      const wrongType = await api.json('/api/v1/upload/presign', {
        json: { filename: 'x.txt', contentType: 'text/plain', size: 10 },
      });
      assert.equal(wrongType.status, 415);
    });

    test("validation checks each target; another user's media key is media_not_found", async () => {
      const a = await userWithToken(env.app.url, 'a');
      const b = await userWithToken(env.app.url, 'b');
      const account = await connectTelegram(a.api);
      const bMedia = (await b.api.json('/api/v1/upload', { method: 'POST', body: pngForm() })).body.media;
      const aMedia = (await a.api.json('/api/v1/upload', { method: 'POST', body: pngForm() })).body.media;

      const ok = await a.api.json('/api/v1/validation', {
        json: { message: 'hello', accountIds: [account], media: aMedia },
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.valid, true);
      const tooLong = await a.api.json('/api/v1/validation', {
        json: { message: 'x'.repeat(5000), accountIds: [account] },
      });
      assert.equal(tooLong.status, 200);
      assert.equal(tooLong.body.valid, false);
      const foreign = await a.api.json('/api/v1/validation', {
        json: { message: 'hi', accountIds: [account], media: bMedia },
      });
      assert.equal(foreign.body.valid, false);
      assert.equal(foreign.body.results[0].errors[0].code, 'media_not_found');
      const badOption = await a.api.json('/api/v1/validation', {
        json: {
          message: 'hi',
          accountIds: [account],
          accountOptions: { [account]: { parseMode: 'Klingon' } },
        },
      });
      assert.equal(badOption.body.valid, false);
      const unknown = await a.api.json('/api/v1/validation', {
        json: { message: 'hi', accountIds: ['nope'] },
      });
      assert.equal(unknown.body.results[0].errors[0].code, 'account_not_found');
      const malformed = await a.api.json('/api/v1/validation', { json: { message: 1 } });
      assert.equal(malformed.status, 400);

      const post = await a.api.json('/api/v1/posts', {
        json: { message: 'hi', accountIds: [account], postingMode: 'draft', media: bMedia },
      });
      assert.equal(post.status, 422);
      assert.equal(post.body.errors[0].code, 'media_not_found');
    });
  });
}
