import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

const image = { key: 'img.png', url: 'https://cdn.example/img.png', contentType: 'image/png', size: 3 };

/**
 * Contract B over HTTP: validation answers an invalid post 200 `valid: false` (only a malformed body
 * is 400), a JSON route refuses another Content-Type with 415, dates the calendar lacks are 422,
 * and a missing postingMode is 400 on both ways of posting.
 */
for (const backend of backends()) {
  describe(`request contract (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('validation: a well-typed request breaking a rule is 200 valid:false with errors', async () => {
      const { api } = await userWithToken(env.app.url, 'validator');
      const news = await connectTelegram(api);
      const cases: [string, unknown, string, string?][] = [
        ['no accounts', { message: 'x', accountIds: [] }, 'accountIds'],
        [
          '101 accounts',
          { message: 'x', accountIds: Array.from({ length: 101 }, (_, i) => `a${i}`) },
          'accountIds',
        ],
        ['over 100,000 characters', { message: 'x'.repeat(100_001), accountIds: [news] }, 'message'],
        [
          '51 media',
          { message: 'x', accountIds: [news], media: Array.from({ length: 51 }, () => image) },
          'media',
        ],
        [
          'a media key with ../',
          { message: 'x', accountIds: [news], media: { ...image, key: '../x.png' } },
          'media.key',
        ],
        [
          'an override for another account',
          { message: 'x', accountIds: [news], overrides: { other: { message: 'y' } } },
          'overrides.other',
          'override_unknown_account',
        ],
      ];
      for (const [name, json, path, code] of cases) {
        const res = await api.json('/api/v1/validation', { json });
        assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
        assert.equal(res.body.valid, false, name);
        assert.deepEqual(res.body.results, [], name);
        assert.equal(res.body.errors[0].path, path, `${name}: ${JSON.stringify(res.body.errors)}`);
        if (code) assert.equal(res.body.errors[0].code, code, name);
      }
      const fine = await api.json('/api/v1/validation', { json: { message: 'hi', accountIds: [news] } });
      assert.equal(fine.status, 200);
      assert.equal(fine.body.valid, true);
      assert.equal('errors' in fine.body, false);
      const malformed = await api.json('/api/v1/validation', {
        method: 'POST',
        body: '{"message":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      assert.equal(
        (await api.json('/api/v1/validation', { json: { message: 1, accountIds: [news] } })).status,
        400,
      );
      // Publishing keeps 422 for the same request.
      const post = await api.json('/api/v1/posts', {
        json: { message: 'x', accountIds: [], postingMode: 'draft' },
      });
      assert.equal(post.status, 422);

      const doc = (await api.json('/openapi.json')).body;
      const validation = doc.paths['/api/v1/validation'].post;
      assert.equal(validation.responses['422'], undefined);
      assert.ok(doc.components.schemas.ValidationResponse.properties.errors);
      assert.ok(doc.paths['/api/v1/posts'].post.responses['422']);
    });

    test('a JSON route called with another Content-Type is 415 naming application/json', async () => {
      const { api } = await userWithToken(env.app.url, 'typer');
      const news = await connectTelegram(api);
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'd', accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(draft.status, 201);
      const calls: [string, string, unknown][] = [
        ['POST', '/api/v1/validation', { message: 'x', accountIds: [news] }],
        ['POST', '/api/v1/posts', { message: 'x', accountIds: [news], postingMode: 'draft' }],
        ['POST', `/api/v1/posts/${draft.body.id}`, { postingMode: 'draft' }],
        ['PATCH', `/api/v1/posts/${draft.body.id}`, { message: 'e' }],
      ];
      for (const [method, path, json] of calls) {
        for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
          const res = await api.json(path, {
            method,
            body: JSON.stringify(json),
            headers: { 'content-type': type },
          });
          assert.equal(res.status, 415, `${method} ${path} ${type}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.code, 'unsupported_media_type');
          assert.match(res.body.detail, /application\/json/);
        }
      }
      const doc = (await api.json('/openapi.json')).body;
      for (const [path, item] of Object.entries(
        doc.paths as Record<
          string,
          Record<
            string,
            { requestBody?: { content: object }; responses: Record<string, { description: string }> }
          >
        >,
      )) {
        for (const [method, operation] of Object.entries(item)) {
          const types = Object.keys(operation.requestBody?.content ?? {});
          if (types.length === 0 || !types.every((t) => t.endsWith('json'))) continue;
          assert.match(
            operation.responses['415']?.description ?? '',
            /application\/json/,
            `${method} ${path}`,
          );
        }
      }
    });

    test('dates the calendar does not have are 422 invalid_datetime; leap days of leap years are fine', async () => {
      const { api } = await userWithToken(env.app.url, 'dater');
      const news = await connectTelegram(api);
      for (const scheduledAt of [
        '2030-02-30T00:00:00Z',
        '2030-01-01T24:00:00Z',
        '2031-04-31T09:00:00Z',
        '2027-02-29T09:00:00Z',
      ]) {
        const res = await api.json('/api/v1/posts', {
          json: { message: 'x', accountIds: [news], postingMode: 'schedule', scheduledAt },
        });
        assert.equal(res.status, 422, scheduledAt);
        assert.equal(res.body.errors[0].code, 'invalid_datetime', scheduledAt);
      }
      const leap = await api.json('/api/v1/posts', {
        json: {
          message: 'leap',
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: '2028-02-29T09:00:00Z',
        },
      });
      assert.equal(leap.status, 201, JSON.stringify(leap.body));
      assert.equal(leap.body.scheduledAt, '2028-02-29T09:00:00.000Z');
      const patch = await api.json(`/api/v1/posts/${leap.body.id}`, {
        method: 'PATCH',
        json: { scheduledAt: '2030-02-30T00:00:00Z' },
      });
      assert.equal(patch.status, 422);
      assert.equal(patch.body.errors[0].code, 'invalid_datetime');
      const act = await api.json(`/api/v1/posts/${leap.body.id}`, {
        json: { postingMode: 'schedule', scheduledAt: '2031-04-31T09:00:00Z' },
      });
      assert.equal(act.status, 422);
      assert.equal(act.body.errors[0].code, 'invalid_datetime');
    });

    test('a missing postingMode is 400 invalid_request naming the field, on POST /posts and POST /posts/{id}', async () => {
      const { api } = await userWithToken(env.app.url, 'moder');
      const news = await connectTelegram(api);
      const create = await api.json('/api/v1/posts', { json: { message: 'x', accountIds: [news] } });
      assert.equal(create.status, 400);
      assert.equal(create.body.code, 'invalid_request');
      assert.equal(create.body.errors[0].path, 'postingMode');
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'd', accountIds: [news], postingMode: 'draft' },
      });
      const act = await api.json(`/api/v1/posts/${draft.body.id}`, { json: {} });
      assert.equal(act.status, 400, JSON.stringify(act.body));
      assert.equal(act.body.code, 'invalid_request');
      assert.match(act.body.detail, /postingMode/);
      assert.equal(act.body.errors[0].path, 'postingMode');
      // A given but unknown mode stays 422.
      const unknown = await api.json(`/api/v1/posts/${draft.body.id}`, { json: { postingMode: 'soon' } });
      assert.equal(unknown.status, 422);
    });
  });
}
