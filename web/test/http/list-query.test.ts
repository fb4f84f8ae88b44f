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
});
