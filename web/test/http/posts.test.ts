import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dispatchSecret } from '../helpers/app.ts';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

for (const backend of backends()) {
  describe(`posts (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    const sentTexts = (text: string) => env.telegram.sent.filter((m) => m.text === text);

    async function setup(name = 'poster') {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      const updates = await connectTelegram(user.api, '@updates', bots.second);
      return { ...user, news, updates };
    }

    test('publish now posts to every target and returns the finished post', async () => {
      const { api, news, updates } = await setup();
      const res = await api.json('/api/v1/posts', {
        json: { message: 'now!', accountIds: [news, updates], postingMode: 'now' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.status, 'posted');
      assert.ok(res.body.postedAt);
      assert.equal(res.body.results.length, 2);
      assert.ok(
        res.body.results.every(
          (r: { status: string; platformPostId: string }) => r.status === 'posted' && r.platformPostId,
        ),
      );
      assert.equal(sentTexts('now!').length, 2);
      const got = await api.json(`/api/v1/posts/${res.body.id}`);
      assert.deepEqual(got.body, res.body);
    });

    test('an invalid post is 422 with per-account errors and publishes nothing', async () => {
      const { api, news, updates } = await setup();
      const text = 'y'.repeat(5000);
      const res = await api.json('/api/v1/posts', {
        json: { message: text, accountIds: [news, updates], postingMode: 'now' },
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(res.body.errors.some((e: { accountId: string }) => e.accountId === news));
      assert.equal(sentTexts(text).length, 0);
      assert.equal((await api.json('/api/v1/posts')).body.posts.length, 0);
      const unknownMode = await api.json('/api/v1/posts', {
        json: { message: 'x', accountIds: [news], postingMode: 'later' },
      });
      assert.equal(unknownMode.status, 422);
      const malformed = await api.json('/api/v1/posts', {
        json: { message: 'x', accountIds: 'nope', postingMode: 'now' },
      });
      assert.equal(malformed.status, 400);
    });

    test('draft → update → schedule → draft → delete, with the status rules', async () => {
      const { api, news, updates } = await setup();
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'draft text', accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(draft.status, 201);
      assert.equal(draft.body.status, 'draft');
      const id = draft.body.id;

      const patched = await api.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { message: 'edited', accountIds: [news, updates] },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.message, 'edited');
      assert.deepEqual(patched.body.accountIds, [news, updates]);

      const noTime = await api.json(`/api/v1/posts/${id}`, { json: { postingMode: 'schedule' } });
      assert.equal(noTime.status, 422);
      const past = await api.json(`/api/v1/posts/${id}`, {
        json: { postingMode: 'schedule', scheduledAt: '2020-01-01T00:00:00Z' },
      });
      assert.equal(past.status, 422);
      assert.match(past.body.detail, /past/);
      const at = inAnHour();
      const scheduled = await api.json(`/api/v1/posts/${id}`, {
        json: { postingMode: 'schedule', scheduledAt: at },
      });
      assert.equal(scheduled.status, 200);
      assert.equal(scheduled.body.status, 'scheduled');
      assert.equal(scheduled.body.scheduledAt, new Date(at).toISOString());

      const invalidEdit = await api.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { message: 'z'.repeat(5000) },
      });
      assert.equal(invalidEdit.status, 422, 'a scheduled post must stay valid');
      const pastEdit = await api.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { scheduledAt: '2020-01-01T00:00:00+02:00' },
      });
      assert.equal(pastEdit.status, 422);

      const back = await api.json(`/api/v1/posts/${id}`, { json: { postingMode: 'draft' } });
      assert.equal(back.status, 200);
      assert.equal(back.body.status, 'draft');
      const unknown = await api.json(`/api/v1/posts/${id}`, { json: { postingMode: 'sometime' } });
      assert.equal(unknown.status, 422);

      assert.equal((await api.fetch(`/api/v1/posts/${id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await api.json(`/api/v1/posts/${id}`)).status, 404);
    });

    test('schedule validates up front; a past scheduledAt is 422', async () => {
      const { api, news } = await setup();
      const past = await api.json('/api/v1/posts', {
        json: {
          message: 'late',
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: '2001-01-01T00:00:00Z',
        },
      });
      assert.equal(past.status, 422);
      assert.match(past.body.detail, /in the past/);
      const missing = await api.json('/api/v1/posts', {
        json: { message: 'late', accountIds: [news], postingMode: 'schedule' },
      });
      assert.equal(missing.status, 422);
      const badDate = await api.json('/api/v1/posts', {
        json: { message: 'x', accountIds: [news], postingMode: 'schedule', scheduledAt: 'tomorrow' },
      });
      assert.equal(badDate.status, 422);
      const invalid = await api.json('/api/v1/posts', {
        json: {
          message: 'q'.repeat(5000),
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: inAnHour(),
        },
      });
      assert.equal(invalid.status, 422);
    });

    test('the drafts list says a draft is planned for a time ahead, and was due once it passed', async () => {
      const { session, api, news } = await setup('planner');
      const ahead = await api.json('/api/v1/posts', {
        json: { message: 'planned ahead', accountIds: [news], postingMode: 'draft', scheduledAt: inAnHour() },
      });
      assert.equal(ahead.status, 201);
      const passed = await api.json('/api/v1/posts', {
        json: {
          message: 'planned before',
          accountIds: [news],
          postingMode: 'draft',
          scheduledAt: new Date(Date.now() - 3600_000).toISOString(),
        },
      });
      assert.equal(passed.status, 201);
      const html = await (await session.fetch('/posts?status=draft')).text();
      const item = (message: string) => html.slice(html.indexOf(message)).slice(0, 2000);
      assert.match(item('planned ahead'), /Planned for /);
      assert.doesNotMatch(item('planned ahead').split('planned before')[0]!, /Was due/);
      assert.match(item('planned before'), /Was due /);
    });

    test('posted posts cannot be changed or deleted (409)', async () => {
      const { api, news } = await setup();
      const posted = await api.json('/api/v1/posts', {
        json: { message: 'final', accountIds: [news], postingMode: 'now' },
      });
      const id = posted.body.id;
      const patch = await api.json(`/api/v1/posts/${id}`, { method: 'PATCH', json: { message: 'x' } });
      assert.equal(patch.status, 409);
      assert.equal(patch.body.code, 'invalid_status');
      assert.equal((await api.json(`/api/v1/posts/${id}`, { json: { postingMode: 'now' } })).status, 409);
      assert.equal((await api.json(`/api/v1/posts/${id}`, { json: { postingMode: 'draft' } })).status, 409);
      assert.equal((await api.fetch(`/api/v1/posts/${id}`, { method: 'DELETE' })).status, 409);
      assert.equal(sentTexts('final').length, 1);
    });

    test('a failed post retried publishes only the targets that did not post', async () => {
      const { api, news, updates } = await setup();
      // The second bot's sends fail for good once: Telegram says the bot was kicked.
      env.telegram.inject({
        path: new RegExp(`/bot${bots.second.token}/sendMessage$`),
        status: 403,
        json: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the channel chat' },
      });
      const first = await api.json('/api/v1/posts', {
        json: { message: 'retry me', accountIds: [news, updates], postingMode: 'now' },
      });
      assert.equal(first.status, 201);
      assert.equal(first.body.status, 'failed');
      const byAccount = Object.fromEntries(
        first.body.results.map((r: { accountId: string }) => [r.accountId, r]),
      );
      assert.equal(byAccount[news].status, 'posted');
      assert.equal(byAccount[updates].status, 'failed');
      assert.equal(byAccount[updates].error.retryable, false);
      assert.equal(sentTexts('retry me').length, 1);

      const retried = await api.json(`/api/v1/posts/${first.body.id}`, { json: { postingMode: 'now' } });
      assert.equal(retried.status, 200);
      assert.equal(retried.body.status, 'posted');
      const sent = sentTexts('retry me');
      assert.equal(sent.length, 2, 'the target that posted was not posted again');
      assert.deepEqual(sent.map((m) => m.bot).sort(), [bots.main.username, bots.second.username].sort());
    });

    test('list: newest first, keyset pagination, status filter', async () => {
      const { api, news } = await setup('lister');
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await api.json('/api/v1/posts', {
          json: { message: `p${i}`, accountIds: [news], postingMode: 'draft' },
        });
        ids.push(res.body.id);
      }
      await api.json('/api/v1/posts', {
        json: { message: 'sched', accountIds: [news], postingMode: 'schedule', scheduledAt: inAnHour() },
      });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { posts: { id: string; status: string }[]; nextCursor: string | null } } =
          await api.json(`/api/v1/posts?status=draft&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.ok(page.body.posts.length <= 3);
        assert.ok(page.body.posts.every((p) => p.status === 'draft'));
        seen.push(...page.body.posts.map((p) => p.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      assert.deepEqual(seen, ids.reverse());
      const all = await api.json('/api/v1/posts');
      assert.equal(all.body.posts.length, 8);
      assert.equal(all.body.nextCursor, null);
      assert.equal((await api.json('/api/v1/posts?limit=500')).status, 400);
      assert.equal((await api.json('/api/v1/posts?status=gone')).status, 400);
      assert.equal((await api.json('/api/v1/posts?cursor=garbage')).status, 400);
      // Blank parameters (a form's empty fields) are absent: every status, the default page.
      const blank = await api.json('/api/v1/posts?status=&limit=&cursor=');
      assert.equal(blank.status, 200);
      assert.deepEqual(blank.body, all.body);
    });

    test('Idempotency-Key replays the first response and refuses another body', async () => {
      const { api, news } = await setup();
      const headers = { 'idempotency-key': `key-${Date.now()}` };
      const body = { message: 'once only', accountIds: [news], postingMode: 'now' };
      const first = await api.json('/api/v1/posts', { json: body, headers });
      assert.equal(first.status, 201);
      const second = await api.json('/api/v1/posts', {
        json: { postingMode: 'now', accountIds: [news], message: 'once only' },
        headers,
      });
      assert.equal(second.status, 201);
      assert.deepEqual(second.body, first.body);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(sentTexts('once only').length, 1);
      const different = await api.json('/api/v1/posts', { json: { ...body, message: 'other' }, headers });
      assert.equal(different.status, 422);
      assert.equal(sentTexts('other').length, 0);
      const invalidHeaders = { 'idempotency-key': `bad-${Date.now()}` };
      const invalid = await api.json('/api/v1/posts', {
        json: { ...body, accountIds: ['nope'] },
        headers: invalidHeaders,
      });
      const invalidAgain = await api.json('/api/v1/posts', {
        json: { ...body, accountIds: ['nope'] },
        headers: invalidHeaders,
      });
      assert.equal(invalid.status, 422);
      assert.deepEqual(invalidAgain.body, invalid.body);
      // Keys are per user: another user may use the same key.
      const other = await setup('other');
      const theirs = await other.api.json('/api/v1/posts', {
        json: { ...body, accountIds: [other.news] },
        headers,
      });
      assert.equal(theirs.status, 201);
      assert.notEqual(theirs.body.id, first.body.id);
    });

    test('another user gets 404 for a post on every route', async () => {
      const a = await setup('owner');
      const b = await setup('intruder');
      const post = await a.api.json('/api/v1/posts', {
        json: { message: 'mine', accountIds: [a.news], postingMode: 'draft' },
      });
      const id = post.body.id;
      const tryAll = async (client: Client) => [
        (await client.json(`/api/v1/posts/${id}`)).status,
        (await client.json(`/api/v1/posts/${id}`, { method: 'PATCH', json: { message: 'x' } })).status,
        (await client.json(`/api/v1/posts/${id}`, { json: { postingMode: 'now' } })).status,
        (await client.fetch(`/api/v1/posts/${id}`, { method: 'DELETE' })).status,
      ];
      assert.deepEqual(await tryAll(b.api), [404, 404, 404, 404]);
      assert.deepEqual(await tryAll(b.session), [404, 404, 404, 404]);
      assert.ok(!(await b.api.json('/api/v1/posts')).body.posts.some((p: { id: string }) => p.id === id));
      assert.equal((await a.api.json(`/api/v1/posts/${id}`)).body.message, 'mine');
      // Using another user's account in a post is account_not_found.
      const steal = await b.api.json(`/api/v1/posts`, {
        json: { message: 'x', accountIds: [a.news], postingMode: 'draft' },
      });
      assert.equal(steal.status, 422);
    });

    test('dispatch endpoint: 401 without the secret, publishes due posts with it', async () => {
      const { api, news } = await setup();
      const noAuth = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, { method: 'POST' });
      assert.equal(noAuth.status, 401);
      const wrong = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: 'Bearer wrong-secret-value' },
      });
      assert.equal(wrong.status, 401);
      const soon = new Date(Date.now() + 1500).toISOString();
      const post = await api.json('/api/v1/posts', {
        json: { message: 'due soon', accountIds: [news], postingMode: 'schedule', scheduledAt: soon },
      });
      assert.equal(post.status, 201);
      await new Promise((r) => setTimeout(r, 1600));
      const res = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(res.status, 200);
      const summary = await res.json();
      assert.ok(summary.claimed >= 1);
      assert.ok(summary.posted >= 1);
      assert.equal((await api.json(`/api/v1/posts/${post.body.id}`)).body.status, 'posted');
      assert.equal(sentTexts('due soon').length, 1);
    });
  });
}
