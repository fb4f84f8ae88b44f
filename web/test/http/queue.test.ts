import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseSlots } from '../../../cli/src/cli.ts';
import { postwave } from '../../../cli/test/helpers.ts';
import { signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect } from '../helpers/oauth.ts';
import { bots } from '../helpers/telegram-bots.ts';

const everyDay = (time: string) => [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time }));

for (const backend of backends()) {
  describe(`queue (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    async function setup(name = 'queuer') {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      const updates = await connectTelegram(user.api, '@updates', bots.second);
      return { ...user, news, updates };
    }

    test('GET answers an empty queue; PUT saves sorted unique slots; bad fields are 422 with paths', async () => {
      const { api, news } = await setup();
      const empty = await api.json(`/api/v1/accounts/${news}/queue`);
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body.slots, []);
      assert.equal(typeof empty.body.timezone, 'string');
      assert.deepEqual(empty.body.freeSlots, []);

      const saved = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: {
          timezone: 'Europe/Berlin',
          slots: [
            { weekday: 3, time: '17:00' },
            { weekday: 1, time: '09:00' },
            { weekday: 3, time: '12:30' },
            { weekday: 1, time: '09:00' },
          ],
        },
      });
      assert.equal(saved.status, 200);
      assert.equal(saved.body.timezone, 'Europe/Berlin');
      assert.deepEqual(saved.body.slots, [
        { weekday: 1, time: '09:00' },
        { weekday: 3, time: '12:30' },
        { weekday: 3, time: '17:00' },
      ]);
      assert.equal(saved.body.freeSlots.length, 10);
      const got = await api.json(`/api/v1/accounts/${news}/queue`);
      assert.deepEqual(got.body.slots, saved.body.slots);

      const bad = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: {
          timezone: 'Mars/Olympus',
          slots: [
            { weekday: 8, time: '09:00' },
            { weekday: 1, time: '24:00' },
            { weekday: 2, time: '9:30' },
          ],
        },
      });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.code, 'validation_failed');
      assert.deepEqual(
        bad.body.errors.map((e: { path: string }) => e.path),
        ['timezone', 'slots[0].weekday', 'slots[1].time', 'slots[2].time'],
      );
      const offset = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: '+01:00', slots: [] },
      });
      assert.equal(offset.status, 422);
      const wrongTypes = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: 'UTC', slots: 'mornings' },
      });
      assert.equal(wrongTypes.status, 400);
      // Nothing changed.
      assert.equal((await api.json(`/api/v1/accounts/${news}/queue`)).body.slots.length, 3);
    });

    test('a fractional weekday is a value out of 1-7: 422 beside the other slots’ issues, not a 400', async () => {
      const { api, news } = await setup('queue-fraction');
      const bad = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: {
          timezone: 'UTC',
          slots: [
            { weekday: 0, time: '09:00' },
            { weekday: 1.5, time: '09:00' },
            { weekday: 2, time: '09:60' },
          ],
        },
      });
      assert.equal(bad.status, 422, JSON.stringify(bad.body));
      assert.equal(bad.body.code, 'validation_failed');
      assert.deepEqual(
        bad.body.errors.map((e: { path: string; code: string }) => `${e.path} ${e.code}`),
        [
          'slots[0].weekday invalid_weekday',
          'slots[1].weekday invalid_weekday',
          'slots[2].time invalid_time',
        ],
      );
      assert.deepEqual((await api.json(`/api/v1/accounts/${news}/queue`)).body.slots, []);
    });

    test('time zones are IANA names, kept canonical; an offset is refused for a workspace as for a queue', async () => {
      const { api, news } = await setup('queue-zones');
      const lower = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: 'europe/berlin', slots: [{ weekday: 1, time: '09:00' }] },
      });
      assert.equal(lower.status, 200, JSON.stringify(lower.body));
      assert.equal(lower.body.timezone, 'Europe/Berlin');

      const me = await api.json('/api/v1/workspaces');
      const workspace = `/api/v1/workspaces/${me.body.currentWorkspaceId ?? me.body.workspaces[0].id}`;
      const utc = await api.json(workspace, { method: 'PATCH', json: { settings: { timezone: 'utc' } } });
      assert.equal(utc.status, 200, JSON.stringify(utc.body));
      assert.equal(utc.body.settings.timezone, 'UTC');
      // Intl reads `+01:00` as UTC+1, PostgreSQL as UTC−1: the analytics' days would disagree.
      const offset = await api.json(workspace, {
        method: 'PATCH',
        json: { settings: { timezone: '+01:00' } },
      });
      assert.equal(offset.status, 422, JSON.stringify(offset.body));
      assert.equal((await api.json(workspace)).body.settings.timezone, 'UTC');
    });

    test('another user’s account (or no account) is 404 for every queue route', async () => {
      const owner = await setup('queue-owner');
      const other = await userWithToken(env.app.url, 'queue-other');
      const path = `/api/v1/accounts/${owner.news}/queue`;
      assert.equal((await other.api.json(path)).status, 404);
      assert.equal(
        (await other.api.json(path, { method: 'PUT', json: { timezone: 'UTC', slots: [] } })).status,
        404,
      );
      assert.equal(
        (await other.api.json(`${path}/move`, { json: { postId: crypto.randomUUID(), move: 'up' } })).status,
        404,
      );
      assert.equal((await owner.api.json('/api/v1/accounts/not-a-uuid/queue')).status, 404);
      assert.equal((await owner.api.json(`/api/v1/accounts/${crypto.randomUUID()}/queue`)).status, 404);
    });

    test('postingMode "queue" takes the next free slot; several accounts share one; empty queues are 422', async () => {
      const { api, news, updates } = await setup('queue-poster');
      await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: 'Asia/Tokyo', slots: [...everyDay('09:00'), ...everyDay('18:00')] },
      });
      const free = (await api.json(`/api/v1/accounts/${news}/queue`)).body.freeSlots as string[];

      const first = await api.json('/api/v1/posts', {
        json: { message: 'queued one', accountIds: [news], postingMode: 'queue' },
      });
      assert.equal(first.status, 201);
      assert.equal(first.body.status, 'scheduled');
      assert.equal(first.body.scheduledAt, free[0]);
      const second = await api.json('/api/v1/posts', {
        json: { message: 'queued two', accountIds: [news], postingMode: 'queue' },
      });
      assert.equal(second.body.scheduledAt, free[1]);

      const noQueue = await api.json('/api/v1/posts', {
        json: { message: 'both', accountIds: [news, updates], postingMode: 'queue' },
      });
      assert.equal(noQueue.status, 422);
      assert.deepEqual(
        noQueue.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [['accountIds[1]', 'queue_empty']],
      );

      // `updates` posts only at 18:00 Tokyo: the shared post skips the 09:00 slots and the taken ones.
      await api.json(`/api/v1/accounts/${updates}/queue`, {
        method: 'PUT',
        json: { timezone: 'Asia/Tokyo', slots: everyDay('18:00') },
      });
      const both = await api.json('/api/v1/posts', {
        json: { message: 'both', accountIds: [news, updates], postingMode: 'queue' },
      });
      assert.equal(both.status, 201);
      const expected = free.slice(2).find((s) => s.endsWith('T09:00:00.000Z'));
      assert.equal(both.body.scheduledAt, expected);

      // A draft joins the queue through POST /posts/{id}; its free slot is the next one left.
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'draft', accountIds: [news], postingMode: 'draft' },
      });
      const queued = await api.json(`/api/v1/posts/${draft.body.id}`, { json: { postingMode: 'queue' } });
      assert.equal(queued.status, 200);
      assert.equal(queued.body.status, 'scheduled');
      const taken = new Set([first.body.scheduledAt, second.body.scheduledAt, both.body.scheduledAt]);
      assert.equal(
        queued.body.scheduledAt,
        free.find((s) => !taken.has(s)),
      );
      // Queuing an already queued post again keeps it where it is: its own slot counts as free.
      const again = await api.json(`/api/v1/posts/${draft.body.id}`, { json: { postingMode: 'queue' } });
      assert.equal(again.body.scheduledAt, queued.body.scheduledAt);

      const view = await api.json(`/api/v1/accounts/${news}/queue`);
      assert.equal(view.body.posts.length, 4);
      assert.ok(view.body.posts.every((p: { onSlot: boolean }) => p.onSlot));
      const times = view.body.posts.map((p: { scheduledAt: string }) => p.scheduledAt);
      assert.deepEqual(times, [...times].sort());
      assert.ok(!view.body.freeSlots.some((s: string) => times.includes(s)));
    });

    test('reorder swaps times; "next" moves a post to the front; concurrent queue posts never share a slot', async () => {
      const { api, news } = await setup('queue-mover');
      await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: 'UTC', slots: [...everyDay('08:00'), ...everyDay('20:00')] },
      });
      const posts = await Promise.all(
        ['a', 'b', 'c', 'd'].map((message) =>
          api.json('/api/v1/posts', { json: { message, accountIds: [news], postingMode: 'queue' } }),
        ),
      );
      assert.ok(posts.every((p) => p.status === 201));
      const times = posts.map((p) => p.body.scheduledAt as string);
      assert.equal(new Set(times).size, 4, 'four distinct slots');
      const order = async () =>
        (await api.json(`/api/v1/accounts/${news}/queue`)).body.posts.map(
          (p: { message: string }) => p.message,
        );
      const initial = await order();
      const slotTimes = [...times].sort();

      const path = `/api/v1/accounts/${news}/queue/move`;
      const idOf = (message: string) => posts.find((p) => p.body.message === message)!.body.id;
      const up = await api.json(path, { json: { postId: idOf(initial[2]), move: 'up' } });
      assert.equal(up.status, 200);
      assert.deepEqual(
        up.body.posts.map((p: { message: string }) => p.message),
        [initial[0], initial[2], initial[1], initial[3]],
      );
      assert.deepEqual(
        up.body.posts.map((p: { scheduledAt: string }) => p.scheduledAt),
        slotTimes,
        'the set of times is unchanged',
      );
      const next = await api.json(path, { json: { postId: idOf(initial[3]), move: 'next' } });
      assert.deepEqual(
        next.body.posts.map((p: { message: string }) => p.message),
        [initial[3], initial[0], initial[2], initial[1]],
      );
      const post = await api.json(`/api/v1/posts/${idOf(initial[3])}`);
      assert.equal(post.body.scheduledAt, slotTimes[0]);

      const bottom = await api.json(path, { json: { postId: idOf(initial[1]), move: 'down' } });
      assert.equal(bottom.status, 200);
      assert.equal((await api.json(path, { json: { postId: crypto.randomUUID(), move: 'up' } })).status, 404);
      assert.equal(
        (await api.json(path, { json: { postId: idOf(initial[0]), move: 'sideways' } })).status,
        422,
      );
      assert.equal((await api.json(path, { json: { postId: idOf(initial[0]), move: 1 } })).status, 400);
    });

    test('DST: a 02:30 Europe/Berlin slot fires at 03:30 on spring-forward day and once on fall-back day', async () => {
      const { api, news } = await setup('queue-dst');
      await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: { timezone: 'Europe/Berlin', slots: [{ weekday: 7, time: '02:30' }] },
      });
      const queue = (notBefore: string) =>
        api.json('/api/v1/posts', {
          json: {
            message: `dst ${notBefore}`,
            accountIds: [news],
            postingMode: 'queue',
            scheduledAt: notBefore,
          },
        });
      // Sunday 28 March 2027: clocks jump from 02:00 to 03:00 CEST.
      const spring = await queue('2027-03-27T12:00:00+01:00');
      assert.equal(spring.status, 201);
      assert.equal(spring.body.scheduledAt, '2027-03-28T01:30:00.000Z');
      // Sunday 31 October 2027: 02:00–03:00 happens twice; the slot takes the first (CEST).
      const fall = await queue('2027-10-30T12:00:00+02:00');
      assert.equal(fall.body.scheduledAt, '2027-10-31T00:30:00.000Z');
      const afterFall = await queue('2027-10-30T12:00:00+02:00');
      assert.equal(afterFall.body.scheduledAt, '2027-11-07T01:30:00.000Z', 'the repeated hour is one slot');
    });

    test('CLI: queue set/show and post --queue', async () => {
      const { session, news } = await setup('queue-cli');
      const { body } = await session.json('/api/v1/tokens', { json: { name: 'cli' } });
      assert.ok(body.token, JSON.stringify(body));
      const cli = (args: string[]) => postwave(args, env.app.url, body.token);
      const set = await cli([
        'queue',
        'set',
        news,
        '--timezone',
        'America/New_York',
        '--slot',
        'weekdays@09:00',
        '--slot',
        'sat,sun@11:30',
        '--json',
      ]);
      assert.equal(set.code, 0, set.stderr);
      assert.equal(JSON.parse(set.stdout).slots.length, 7);
      const bad = await cli(['queue', 'set', news, '--slot', 'mon@25:00']);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /HH:MM/);
      assert.equal((await cli(['queue', 'set', news, '--slot', 'someday@09:00'])).code, 2);
      const posted = await cli(['post', 'queued from the CLI', '-a', news, '--queue', '--json']);
      assert.equal(posted.code, 0, posted.stderr);
      const post = JSON.parse(posted.stdout);
      assert.equal(post.status, 'scheduled');
      const show = await cli(['queue', 'show', news]);
      assert.equal(show.code, 0);
      assert.match(show.stdout, /America\/New_York/);
      assert.match(show.stdout, /mon {2}09:00/);
      assert.ok(show.stdout.includes(post.id));
      assert.deepEqual(parseSlots('Tuesday,7@08:15'), [
        { weekday: 2, time: '08:15' },
        { weekday: 7, time: '08:15' },
      ]);
    });

    test('MCP: set_queue, get_queue and create_post with postingMode "queue"', async () => {
      const { client: browser } = await signUp(env.app.url, 'queue-mcp');
      const accountId = await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('get_queue') && names.includes('set_queue'));
        const set = await client.callTool({
          name: 'set_queue',
          arguments: { accountId, timezone: 'Europe/Paris', slots: [{ weekday: 2, time: '10:00' }] },
        });
        assert.equal(set.isError, undefined);
        const invalid = await client.callTool({
          name: 'set_queue',
          arguments: { accountId, timezone: 'Nowhere/Land', slots: [] },
        });
        assert.equal(invalid.isError, true);
        // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON
        assert.equal((invalid.structuredContent as any).error.errors[0].path, 'timezone');
        const created = await client.callTool({
          name: 'create_post',
          arguments: { message: 'queued by an assistant', accountIds: [accountId], postingMode: 'queue' },
        });
        assert.equal(created.isError, undefined, JSON.stringify(created.content));
        // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON
        const post = created.structuredContent as any;
        assert.equal(post.status, 'scheduled');
        const got = await client.callTool({ name: 'get_queue', arguments: { accountId } });
        // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON
        const queue = got.structuredContent as any;
        assert.equal(queue.posts[0].id, post.id);
        assert.equal(queue.posts[0].scheduledAt, post.scheduledAt);
        assert.equal(new Date(post.scheduledAt).getUTCDay(), 2, 'a Tuesday');
      } finally {
        await client.close();
      }
    });
  });
}
