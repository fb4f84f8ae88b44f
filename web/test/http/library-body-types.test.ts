import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { pngOf, upload } from '../helpers/media.ts';
import { assertRefused } from '../helpers/problems.ts';

/**
 * Contract B on the library's bodies (templates, snippets, media metadata, `templateId`, `recycle`):
 * a field missing or of the wrong type is 400 `invalid_request`, a well-typed value that breaks a
 * rule 422 `validation_failed`, both naming the field; nothing is changed by either. Also the
 * paging rule of lists (`limit` at most 200) on the media library.
 */
for (const backend of backends()) {
  describe(`library bodies: wrong types 400, bad values 422 (${backend})`, () => {
    let env: TelegramApp;
    let api: Client;
    let news: string;

    before(async () => {
      env = await startTelegramApp(backend);
      api = (await userWithToken(env.app.url, 'body-types')).api;
      news = await connectTelegram(api);
    });
    after(() => env?.stop());

    type Case = [body: unknown, status: 400 | 422, path: string];
    async function check(path: string, method: 'POST' | 'PATCH', cases: Case[]) {
      for (const [json, status, field] of cases) {
        const res = await api.json(path, { method, json });
        assertRefused(res, status, field);
      }
    }

    test('templates: POST and PATCH', async () => {
      await check('/api/v1/templates', 'POST', [
        [{ name: 7 }, 400, 'name'],
        [{ name: 'x', accountIds: 'all' }, 400, 'accountIds'],
        [{ name: 'x', media: 'photo.png' }, 400, 'media'],
        [{ name: 'x'.repeat(201) }, 422, 'name'],
        [{ name: 'x', message: 'x'.repeat(100_001) }, 422, 'message'],
      ]);
      const created = await api.json('/api/v1/templates', { json: { name: 'kept', message: 'hi' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const path = `/api/v1/templates/${created.body.id}`;
      await check(path, 'PATCH', [
        [{ name: 5 }, 400, 'name'],
        [{ message: null }, 400, 'message'],
        [{ name: '' }, 422, 'name'],
      ]);
      const kept = (await api.json(path)).body;
      assert.equal(kept.name, 'kept', 'a refused PATCH changes nothing');
      assert.equal(kept.message, 'hi');
    });

    test('snippets: POST and PATCH', async () => {
      await check('/api/v1/snippets', 'POST', [
        [{ name: 'x', kind: 'text', body: 5 }, 400, 'body'],
        [{ name: 'x', kind: 3, body: 'a' }, 400, 'kind'],
        [{ name: 'x', kind: 'signature', body: 'a', defaultFor: news }, 400, 'defaultFor'],
        [{ name: ' ', kind: 'text', body: 'a' }, 422, 'name'],
        [{ name: 'x'.repeat(201), kind: 'text', body: 'a' }, 422, 'name'],
        [{ name: 'x', kind: 'text', body: 'x'.repeat(10_001) }, 422, 'body'],
      ]);
      const created = await api.json('/api/v1/snippets', { json: { name: 'sig', kind: 'text', body: 'a' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await check(`/api/v1/snippets/${created.body.id}`, 'PATCH', [
        [{ body: ['a'] }, 400, 'body'],
        [{ defaultFor: null }, 400, 'defaultFor'],
        [{ body: '' }, 422, 'body'],
        [{ kind: 'poem' }, 422, 'kind'],
      ]);
    });

    test('templateId on POST /api/v1/posts: a non-string 400, an empty or unknown one 422', async () => {
      await check('/api/v1/posts', 'POST', [
        [{ templateId: null, postingMode: 'draft' }, 400, 'templateId'],
        [{ templateId: ['x'], postingMode: 'draft' }, 400, 'templateId'],
        [{ templateId: '', postingMode: 'draft' }, 422, 'templateId'],
      ]);
      const unknown = await api.json('/api/v1/posts', {
        json: { templateId: crypto.randomUUID(), postingMode: 'draft' },
      });
      assertRefused(unknown, 422, 'templateId', 'template_not_found');
    });

    test('recycle on a post: a wrong type 400 on POST and PATCH, out of range 422', async () => {
      const base = { message: 'Evergreen', accountIds: [news], postingMode: 'draft' };
      await check('/api/v1/posts', 'POST', [
        [{ ...base, recycle: 7 }, 400, 'recycle'],
        [{ ...base, recycle: { intervalDays: 7, maxTimes: '2' } }, 400, 'recycle.maxTimes'],
        [{ ...base, recycle: { intervalDays: 7, maxTimes: 1, until: 2027 } }, 400, 'recycle.until'],
        [
          { ...base, recycle: { intervalDays: 7, maxTimes: 1, jitterMinutes: 999 } },
          422,
          'recycle.jitterMinutes',
        ],
      ]);
      const draft = await api.json('/api/v1/posts', { json: base });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      await check(`/api/v1/posts/${draft.body.id}`, 'PATCH', [
        [{ recycle: 'weekly' }, 400, 'recycle'],
        [{ recycle: { intervalDays: 1, maxTimes: 1 } }, 422, 'recycle.intervalDays'],
      ]);
      assert.equal((await api.json(`/api/v1/posts/${draft.body.id}`)).body.recycle, null);
    });

    test('media PATCH: a wrong type 400, a value out of bounds 422', async () => {
      const media = (await upload(api, await pngOf(8, 8, 7), 'kept.png', 'image/png')).body.media;
      const path = `/api/v1/media/${media.id}`;
      await check(path, 'PATCH', [
        [{ filename: 5 }, 400, 'filename'],
        [{ tags: [1] }, 400, 'tags.0'],
        [{ altText: ['a'] }, 400, 'altText'],
        [{ filename: 'x'.repeat(201) }, 422, 'filename'],
        [{ tags: ['a,b'] }, 422, 'tags.0'],
      ]);
      const kept = (await api.json(`/api/v1/media?limit=200`)).body.media.find(
        (m: { id: string }) => m.id === media.id,
      );
      assert.equal(kept.filename, 'kept.png', 'a refused PATCH changes nothing');
    });

    test('the media list takes limit up to 200 (the paging rule of lists), as /openapi.json says', async () => {
      for (const index of [1, 2, 3])
        await upload(api, await pngOf(4, 4, index), `p${index}.png`, 'image/png');
      const page = await api.json('/api/v1/media?limit=200');
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.media.length >= 3);
      assert.equal(page.body.nextCursor, null);
      const over = await api.json('/api/v1/media?limit=201');
      assert.equal(over.status, 400);
      assert.equal(over.body.code, 'invalid_request');
      assert.match(over.body.detail, /limit 1 to 200/);
      const doc = (await api.json('/openapi.json')).body;
      const limit = doc.paths['/api/v1/media'].get.parameters.find(
        (p: { name: string }) => p.name === 'limit',
      );
      assert.equal(limit.schema.maximum, 200);
      assert.equal(limit.schema.default, 50);
      assert.match(limit.description, /1–200, default 50/);
    });
  });
}
