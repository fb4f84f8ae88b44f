import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, type FakeX, startFakeTelegram, startFakeX } from '@postwave/shared/testing';
import { dispatchSecret, type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { type MailCapture, startMailCapture } from '../helpers/mail-capture.ts';
import { connect } from '../helpers/oauth.ts';
import { assertWrongType } from '../helpers/problems.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

const tokens = {
  main: '111111:RecycleMainBotTokenRecycleMainBotT',
  doomed: '777777:RecycleDoomedBotTokenRecycleDoomed',
};
const minute = 60_000;
const day = 24 * 60 * minute;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const backend of backends()) {
  describe(`evergreen recycling over HTTP (${backend})`, () => {
    const bots: Record<string, { username: string }> = {
      [tokens.main]: { username: 'recycle_main_bot' },
      [tokens.doomed]: { username: 'recycle_doomed_bot' },
    };
    let telegram: FakeTelegram;
    let x: FakeX;
    let mail: MailCapture;
    let app: RunningApp;
    let api: Client;
    let session: Client;
    let email: string;
    let news: string;
    let updates: string;
    let xAccount: string;

    before(async () => {
      telegram = await startFakeTelegram({
        bots,
        chats: {
          '@news': { id: -1001, title: 'News', username: 'news' },
          '@updates': { id: -1002, title: 'Updates', username: 'updates' },
        },
      });
      x = await startFakeX();
      mail = await startMailCapture();
      app = await startApp(backend, {
        TELEGRAM_API_URL: telegram.url,
        ...x.env(),
        SMTP_URL: mail.url,
        // Health checks every second: a revoked bot is seen as needing a reconnect quickly.
        ACCOUNT_HEALTH_INTERVAL_MS: '1000',
      });
      const made = await userWithToken(app.url, 'recycling');
      api = made.api;
      session = made.session;
      email = made.user.email;
      const connect = async (json: Record<string, unknown>) => {
        const res = await api.json('/api/v1/accounts', { json });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.id as string;
      };
      news = await connect({
        platform: 'telegram',
        platformAccountId: '@news',
        credentials: { botToken: tokens.main },
      });
      updates = await connect({
        platform: 'telegram',
        platformAccountId: '@updates',
        credentials: { botToken: tokens.doomed },
      });
      xAccount = await connect({ platform: 'x', credentials: x.credentials() });
    });
    after(async () => {
      await app?.stop();
      await telegram?.close();
      await x?.close();
      await mail?.close();
    });

    const dispatch = async () => {
      const res = await fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(res.status, 200);
    };
    const get = async (id: string): Promise<Json> => (await api.json(`/api/v1/posts/${id}`)).body;
    const events = async (id: string): Promise<Json[]> =>
      (await api.json(`/api/v1/posts/${id}/events`)).body.events;
    const copiesOf = async (id: string): Promise<Json[]> => {
      const { body } = await api.json('/api/v1/posts?limit=200');
      return (body.posts as Json[])
        .filter((p) => p.recycledFrom === id)
        .sort((a, b) => a.recycleIndex - b.recycleIndex);
    };
    const sentTimes = (text: string) => telegram.sent.filter((m) => m.text === text).length;
    /** Schedules a recycled post a moment ahead and runs `dispatchers` dispatches at once when due. */
    const publishRecycled = async (body: Record<string, unknown>, dispatchers = 1): Promise<Json> => {
      const created = await api.json('/api/v1/posts', {
        json: { postingMode: 'schedule', scheduledAt: new Date(Date.now() + 1200).toISOString(), ...body },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await new Promise((r) => setTimeout(r, 1300));
      await Promise.all(Array.from({ length: dispatchers }, dispatch));
      return get(created.body.id);
    };
    /** A copy due in a week, brought forward (as a person may) and dispatched. */
    const bringDue = async (copyId: string, dispatchers = 1): Promise<Json> => {
      const moved = await api.json(`/api/v1/posts/${copyId}`, {
        method: 'PATCH',
        json: { scheduledAt: new Date(Date.now() + 1200).toISOString() },
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      await new Promise((r) => setTimeout(r, 1300));
      await Promise.all(Array.from({ length: dispatchers }, dispatch));
      return get(copyId);
    };

    test('a posted original gets a copy at interval ± jitter, the chain goes on from it and stops at maxTimes', async () => {
      const text = 'Evergreen: our guide to the API';
      const original = await publishRecycled({
        message: text,
        accountIds: [news],
        accountOptions: { [news]: { disableNotification: true } },
        recycle: { intervalDays: 7, maxTimes: 2, jitterMinutes: 30 },
      });
      assert.equal(original.status, 'posted');
      assert.deepEqual(original.recycle, { intervalDays: 7, maxTimes: 2, jitterMinutes: 30 });
      assert.equal(original.recycledFrom, null);
      assert.equal(original.recycleIndex, null);

      const [copy] = await copiesOf(original.id);
      assert.ok(copy, 'a copy was scheduled in the same transaction as the outcome');
      assert.equal(copy.status, 'scheduled');
      assert.equal(copy.recycleIndex, 1);
      assert.equal(copy.recycle, null);
      assert.equal(copy.message, text);
      assert.deepEqual(copy.accountIds, [news]);
      assert.deepEqual(copy.accountOptions, { [news]: { disableNotification: true } });
      const offset = Date.parse(copy.scheduledAt) - Date.parse(original.postedAt);
      assert.ok(Math.abs(offset - 7 * day) <= 30 * minute, `${(offset - 7 * day) / minute} min off a week`);
      assert.equal(Math.abs((offset - 7 * day) % minute), 0, 'moved by whole minutes');

      const scheduled = (await events(original.id)).filter((e) => e.type === 'recycle_scheduled');
      assert.equal(scheduled.length, 1);
      assert.deepEqual(
        { ...scheduled[0].recycle, scheduledAt: undefined },
        { copyId: copy.id, index: 1, fromPostId: original.id, scheduledAt: undefined },
      );
      assert.equal(scheduled[0].recycle.scheduledAt, copy.scheduledAt);
      const copyEvents = (await events(copy.id)).map((e) => e.type);
      assert.deepEqual(copyEvents, ['created', 'scheduled']);

      const first = await bringDue(copy.id);
      assert.equal(first.status, 'posted');
      const copies = await copiesOf(original.id);
      assert.deepEqual(
        copies.map((c) => [c.recycleIndex, c.status]),
        [
          [1, 'posted'],
          [2, 'scheduled'],
        ],
      );
      const second = await bringDue(copies[1].id);
      assert.equal(second.status, 'posted');
      assert.equal((await copiesOf(original.id)).length, 2, 'no third copy: maxTimes is 2');
      assert.equal(sentTimes(text), 3);
      const stopped = (await events(original.id)).filter((e) => e.type === 'recycle_stopped');
      assert.equal(stopped.length, 1);
      assert.equal(stopped[0].recycle.reason, 'max_times');
      assert.equal(stopped[0].recycle.fromPostId, second.id);
      assert.equal(stopped[0].accountId, undefined);
    });

    test('a copy that would fall after `until` is not made; the timeline says so', async () => {
      const original = await publishRecycled({
        message: 'Evergreen until soon',
        accountIds: [news],
        recycle: {
          intervalDays: 7,
          maxTimes: 5,
          jitterMinutes: 0,
          until: new Date(Date.now() + 3 * day).toISOString(),
        },
      });
      assert.equal(original.status, 'posted');
      assert.equal((await copiesOf(original.id)).length, 0);
      const stop = (await events(original.id)).find((e) => e.type === 'recycle_stopped');
      assert.equal(stop?.recycle.reason, 'until');
    });

    test('recycle set to null on a posted original removes its pending copy and stops the chain', async () => {
      const original = await publishRecycled({
        message: 'Evergreen then turned off',
        accountIds: [news],
        recycle: { intervalDays: 30, maxTimes: 3 },
      });
      assert.deepEqual(original.recycle, { intervalDays: 30, maxTimes: 3, jitterMinutes: 0 });
      const [copy] = await copiesOf(original.id);
      assert.ok(copy);
      const off = await api.json(`/api/v1/posts/${original.id}`, {
        method: 'PATCH',
        json: { recycle: null },
      });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.status, 'posted');
      assert.equal(off.body.recycle, null);
      assert.equal((await api.json(`/api/v1/posts/${copy.id}`)).status, 404);
      const stop = (await events(original.id)).find((e) => e.type === 'recycle_stopped');
      assert.equal(stop?.recycle.reason, 'turned_off');
      // Turning it off is an edit of the original (docs/workspaces.md, Audit log): one entry.
      const audit = await api.json(`/api/v1/audit?action=post.updated&limit=200`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      const entries = audit.body.entries.filter(
        (e: { target: { id: string } }) => e.target.id === original.id,
      );
      assert.equal(entries.length, 1, JSON.stringify(audit.body.entries));
      assert.equal(entries[0].actor.type, 'member');
      assert.deepEqual(entries[0].details, { status: 'posted', accounts: 1, fields: ['recycle'] });
      // A posted post still refuses any other change.
      const edit = await api.json(`/api/v1/posts/${original.id}`, {
        method: 'PATCH',
        json: { message: 'changed', recycle: null },
      });
      assert.equal(edit.status, 409);
    });

    test('a platform refusing a copy as a duplicate drops that target (timeline, e-mail); a posted original is not deleted', async () => {
      const text = 'Evergreen on two networks';
      const original = await publishRecycled({
        message: text,
        accountIds: [news, xAccount],
        recycle: { intervalDays: 14, maxTimes: 4, jitterMinutes: 240 },
      });
      assert.equal(original.status, 'posted');
      const [copy] = await copiesOf(original.id);
      assert.deepEqual(copy.accountIds, [news, xAccount]);
      const offset = Date.parse(copy.scheduledAt) - Date.parse(original.postedAt);
      assert.ok(Math.abs(offset - 14 * day) <= 240 * minute);

      const first = await bringDue(copy.id);
      // X answers the same words with 403 "duplicate content": failed for X, posted on Telegram.
      assert.equal(first.status, 'failed');
      const refused = first.results.find((r: Json) => r.accountId === xAccount);
      assert.equal(refused.error.code, 'duplicate_content');
      assert.match(refused.error.hint, /duplicate/);
      assert.equal(first.results.find((r: Json) => r.accountId === news).status, 'posted');

      const copies = await copiesOf(original.id);
      assert.equal(copies.length, 2);
      assert.deepEqual(copies[1].accountIds, [news], 'X is left out of the next copy');
      const timeline = await events(original.id);
      const dropped = timeline.find((e) => e.type === 'recycle_stopped' && e.accountId === xAccount);
      assert.equal(dropped?.recycle.reason, 'duplicate');
      assert.ok(timeline.some((e) => e.type === 'recycle_scheduled' && e.recycle.index === 2));
      const notice = await until('the notice e-mail', async () =>
        mail
          .to(email, 'A recycled post changed course')
          .map((m) => m.raw.replaceAll('=\r\n', ''))
          .find((raw) => raw.includes(original.id)),
      );
      assert.match(notice, /refused the copy as a duplicate/);

      // A posted original cannot be deleted (409); its pending copy stays.
      assert.equal((await api.json(`/api/v1/posts/${original.id}`, { method: 'DELETE' })).status, 409);
      assert.equal((await get(copies[1].id)).status, 'scheduled');
    });

    test('deleting a (failed) original deletes its pending copies and keeps the posted ones', async () => {
      const text = 'Evergreen already on X';
      // X already holds these words: the original fails there (duplicate) and posts on Telegram.
      const earlier = await api.json('/api/v1/posts', {
        json: { message: text, accountIds: [xAccount], postingMode: 'now' },
      });
      assert.equal(earlier.body.status, 'posted');
      const original = await publishRecycled({
        message: text,
        accountIds: [news, xAccount],
        recycle: { intervalDays: 7, maxTimes: 3 },
      });
      assert.equal(original.status, 'failed');
      const [copy] = await copiesOf(original.id);
      assert.deepEqual(copy.accountIds, [news]);
      const posted = await bringDue(copy.id);
      assert.equal(posted.status, 'posted');
      const [, pending] = await copiesOf(original.id);
      assert.equal(pending.status, 'scheduled');

      assert.equal((await api.json(`/api/v1/posts/${original.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await api.json(`/api/v1/posts/${pending.id}`)).status, 404, 'the pending copy went');
      const kept = await get(posted.id);
      assert.equal(kept.status, 'posted', 'the posted copy stays');
      assert.equal(kept.recycledFrom, null);
    });

    test('an account that needs reconnecting is left out of the next copy', async () => {
      const text = 'Evergreen to two channels';
      const original = await publishRecycled({
        message: text,
        accountIds: [news, updates],
        recycle: { intervalDays: 7, maxTimes: 3 },
      });
      assert.equal(original.status, 'posted');
      const [copy] = await copiesOf(original.id);
      assert.deepEqual(copy.accountIds, [news, updates]);

      delete bots[tokens.doomed]; // the bot was deleted: Telegram answers 401
      await until('needs_reconnect', async () => {
        const { body } = await api.json(`/api/v1/accounts/${updates}`);
        return body.health === 'needs_reconnect' ? body : undefined;
      });
      const first = await bringDue(copy.id);
      assert.equal(first.results.find((r: Json) => r.accountId === news).status, 'posted');
      const copies = await copiesOf(original.id);
      assert.equal(copies.length, 2);
      assert.deepEqual(copies[1].accountIds, [news]);
      const dropped = (await events(original.id)).find(
        (e) => e.type === 'recycle_stopped' && e.accountId === updates,
      );
      assert.equal(dropped?.recycle.reason, 'account_unhealthy');
    });

    test('concurrent dispatchers: each copy is made once and published once', async () => {
      const text = 'Evergreen under contention';
      const original = await publishRecycled(
        { message: text, accountIds: [news], recycle: { intervalDays: 7, maxTimes: 5, jitterMinutes: 10 } },
        4,
      );
      assert.equal(original.status, 'posted');
      assert.equal(sentTimes(text), 1);
      const copies = await copiesOf(original.id);
      assert.equal(copies.length, 1);
      const first = await bringDue(copies[0].id, 4);
      assert.equal(first.status, 'posted');
      assert.equal(sentTimes(text), 2);
      assert.deepEqual(
        (await copiesOf(original.id)).map((c) => c.recycleIndex),
        [1, 2],
      );
      const scheduled = (await events(original.id)).filter((e) => e.type === 'recycle_scheduled');
      assert.equal(scheduled.length, 2);
    });

    test('bad recycle values are 422s (wrong types 400s) naming the field; a copy is not recycled itself', async () => {
      const base = {
        message: 'Evergreen draft',
        accountIds: [news],
        postingMode: 'draft',
      };
      const cases: [unknown, string][] = [
        [{ intervalDays: 6, maxTimes: 1 }, 'recycle.intervalDays'],
        [{ intervalDays: 366, maxTimes: 1 }, 'recycle.intervalDays'],
        [{ intervalDays: 7, maxTimes: 0 }, 'recycle.maxTimes'],
        [{ intervalDays: 7, maxTimes: 53 }, 'recycle.maxTimes'],
        [{ intervalDays: 7, maxTimes: 1, jitterMinutes: 241 }, 'recycle.jitterMinutes'],
        [{ intervalDays: 7, maxTimes: 1, jitterMinutes: -1 }, 'recycle.jitterMinutes'],
        [{ intervalDays: 7, maxTimes: 1, until: '2020-01-01T00:00:00Z' }, 'recycle.until'],
        [{ intervalDays: 7, maxTimes: 1, until: 'next spring' }, 'recycle.until'],
      ];
      // Contract B: a wrong type (a string, a fraction where whole days are, a missing field) is 400.
      for (const [recycle, path] of [
        [{ intervalDays: '7', maxTimes: 1 }, 'recycle.intervalDays'],
        [{ intervalDays: 7, maxTimes: 1.5 }, 'recycle.maxTimes'],
        [{ maxTimes: 1 }, 'recycle.intervalDays'],
        ['weekly', 'recycle'],
      ] as const)
        assertWrongType(await api.json('/api/v1/posts', { json: { ...base, recycle } }), path);
      for (const [recycle, path] of cases) {
        const res = await api.json('/api/v1/posts', { json: { ...base, recycle } });
        assert.equal(res.status, 422, `${JSON.stringify(recycle)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.errors.some((e: Json) => e.path === path),
          `${JSON.stringify(recycle)} names ${path}: ${JSON.stringify(res.body.errors)}`,
        );
      }
      const draft = await api.json('/api/v1/posts', { json: base });
      assert.equal(draft.status, 201);
      assert.equal(draft.body.recycle, null);
      const bad = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { recycle: { intervalDays: 400, maxTimes: 1 } },
      });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.errors[0].path, 'recycle.intervalDays');
      const on = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { recycle: { intervalDays: 7, maxTimes: 1, until: '2099-01-01T00:00:00+02:00' } },
      });
      assert.equal(on.status, 200);
      assert.deepEqual(on.body.recycle, {
        intervalDays: 7,
        maxTimes: 1,
        jitterMinutes: 0,
        until: '2098-12-31T22:00:00.000Z',
      });
      assert.equal(on.body.status, 'draft');

      const original = await publishRecycled({
        message: 'Evergreen whose copy is asked to recycle',
        accountIds: [news],
        recycle: { intervalDays: 7, maxTimes: 1 },
      });
      const [copy] = await copiesOf(original.id);
      const refused = await api.json(`/api/v1/posts/${copy.id}`, {
        method: 'PATCH',
        json: { recycle: { intervalDays: 7, maxTimes: 1 } },
      });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.errors[0].path, 'recycle');
    });

    test('MCP create_post and update_post take recycle, with the same 422 naming the field', async () => {
      const { client } = await connect(app.url, session);
      const made = await client.callTool({
        name: 'create_post',
        arguments: {
          message: 'Evergreen by an assistant',
          accountIds: [news],
          postingMode: 'draft',
          recycle: { intervalDays: 10, maxTimes: 2, jitterMinutes: 15 },
        },
      });
      const post = made.structuredContent as Json;
      assert.deepEqual(post.recycle, { intervalDays: 10, maxTimes: 2, jitterMinutes: 15 });
      const bad = await client.callTool({
        name: 'update_post',
        arguments: { id: post.id, recycle: { intervalDays: 10, maxTimes: 60 } },
      });
      assert.equal(bad.isError, true);
      const problem = (bad.structuredContent as Json).error;
      assert.equal(problem.status, 422);
      assert.equal(problem.errors[0].path, 'recycle.maxTimes');
      const off = await client.callTool({ name: 'update_post', arguments: { id: post.id, recycle: null } });
      assert.equal((off.structuredContent as Json).recycle, null);
      await client.close();
    });
  });
}
