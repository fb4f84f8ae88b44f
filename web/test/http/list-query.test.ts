import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';

/**
 * GET /api/v1/posts query validation (contract B: limit default 50, max 200; a bad cursor or status
 * is 400): the problem names the parameter it refused, in `detail` and in `errors`.
 */
describe('Scheduler: list query parameters', () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp('pglite');
  });
  after(() => app?.stop());

  test('each refused parameter is named, and only that one', async () => {
    const { api } = await userWithToken(app.url, 'list-query');
    const cases: [string, string][] = [
      [`cursor=${'A'.repeat(600)}`, 'cursor'],
      ['status=bogus', 'status'],
      ['limit=201', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=0x10', 'limit'],
      ['limit=%205', 'limit'],
      ['limit=5.0', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await api.json(`/api/v1/posts?${query}`);
      assert.equal(res.status, 400, query);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'invalid_request');
      assert.deepEqual(
        res.body.errors.map((e: { path: string }) => e.path),
        [field],
        `${query}: ${JSON.stringify(res.body)}`,
      );
      assert.match(res.body.detail, new RegExp(`\\b${field}\\b`));
      for (const other of ['status', 'limit', 'cursor'].filter((name) => name !== field))
        assert.doesNotMatch(res.body.detail, new RegExp(`\\b${other}\\b`), `${query}: ${res.body.detail}`);
    }
    const ok = await api.json('/api/v1/posts?limit=200&status=draft');
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { posts: [], nextCursor: null });
  });

  test('every list takes limit in decimal digits only, as OpenAPI declares an integer', async () => {
    const { api } = await userWithToken(app.url, 'list-query-digits');
    for (const list of ['/api/v1/posts', '/api/v1/audit', '/api/v1/media']) {
      for (const limit of ['1e2', '0x10', '+5', '5.0'])
        assert.equal((await api.json(`${list}?limit=${limit}`)).status, 400, `${list}?limit=${limit}`);
      const ok = await api.json(`${list}?limit=007`);
      assert.equal(ok.status, 200, `${list}: ${JSON.stringify(ok.body)}`);
    }
    const doc = (await api.json('/openapi.json')).body;
    for (const list of ['/api/v1/posts', '/api/v1/audit', '/api/v1/media']) {
      const limit = doc.paths[list].get.parameters.find((p: { name: string }) => p.name === 'limit');
      assert.equal(limit.schema.type, 'integer', list);
    }
  });
});
