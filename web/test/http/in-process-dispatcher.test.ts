import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

for (const backend of backends()) {
  describe(`in-process dispatcher (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      // The embedded default: no DISPATCH_SECRET, the timer does the work.
      env = await startTelegramApp(backend, {
        DISPATCH_SECRET: '',
        DISPATCHER_ENABLED: 'true',
        // A safety-net poll far longer than the test: only the wake-up at the due time can publish.
        DISPATCHER_INTERVAL_MS: '600000',
      });
    });
    after(() => env?.stop());

    test('publishes a scheduled post at its time (woken by the schedule, not a poll), never before', async () => {
      const { api } = await userWithToken(env.app.url);
      const news = await connectTelegram(api);
      const at = new Date(Date.now() + 1500).toISOString();
      const post = await api.json('/api/v1/posts', {
        json: { message: 'on the timer', accountIds: [news], postingMode: 'schedule', scheduledAt: at },
      });
      assert.equal(post.status, 201);
      const deadline = Date.now() + 15_000;
      let status = post.body.status;
      while (status !== 'posted' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await api.json(`/api/v1/posts/${post.body.id}`)).body.status;
      }
      assert.equal(status, 'posted');
      assert.equal(env.telegram.sent.filter((m) => m.text === 'on the timer').length, 1);
      const done = (await api.json(`/api/v1/posts/${post.body.id}`)).body;
      assert.ok(Date.parse(done.postedAt) >= Date.parse(at), 'not published before scheduledAt');
    });

    test('the dispatch endpoint does not exist without DISPATCH_SECRET', async () => {
      const res = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: 'Bearer anything-at-all-here' },
      });
      assert.equal(res.status, 404);
    });
  });
}
