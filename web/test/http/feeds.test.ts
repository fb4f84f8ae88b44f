import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { dispatchSecret } from '../helpers/app.ts';
import { signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect } from '../helpers/oauth.ts';
import { bots } from '../helpers/telegram-bots.ts';

interface Item {
  guid?: string;
  title: string;
  link: string;
  description: string;
}

/** A local feed host: RSS at /rss (ETag), Atom at /atom (Last-Modified only), /slow (RSS after 600 ms). */
class FeedHost {
  server!: Server;
  url = '';
  items: Item[] = [];
  atom: { id: string; title: string; link: string; summary: string }[] = [];
  version = 1;
  atomModified = new Date('2026-01-01T00:00:00Z');
  requests: { path: string; headers: IncomingHttpHeaders; status: number }[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const respond = (status: number, headers: Record<string, string>, body?: string) => {
        this.requests.push({ path: req.url ?? '', headers: req.headers, status });
        res.writeHead(status, headers).end(body);
      };
      if (req.url === '/rss' || req.url === '/slow') {
        const etag = `"v${this.version}"`;
        if (req.headers['if-none-match'] === etag) return respond(304, { etag });
        const send = () => respond(200, { 'content-type': 'application/rss+xml', etag }, this.rss());
        if (req.url === '/slow') setTimeout(send, 600);
        else send();
        return;
      }
      if (req.url === '/atom') {
        const modified = this.atomModified.toUTCString();
        if (req.headers['if-modified-since'] === modified) return respond(304, { 'last-modified': modified });
        return respond(
          200,
          { 'content-type': 'application/atom+xml', 'last-modified': modified },
          this.atomXml(),
        );
      }
      respond(404, {});
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  rss(): string {
    const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    const items = [...this.items]
      .reverse()
      .map(
        (i) =>
          `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link>${i.guid ? `<guid isPermaLink="false">${esc(i.guid)}</guid>` : ''}<description>${esc(i.description)}</description></item>`,
      )
      .join('');
    return `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example</link><description>d</description>${items}</channel></rss>`;
  }

  atomXml(): string {
    const entries = this.atom
      .map(
        (e) =>
          `<entry><id>${e.id}</id><title>${e.title}</title><link rel="alternate" href="${e.link}"/><summary>${e.summary}</summary><updated>2026-01-01T00:00:00Z</updated></entry>`,
      )
      .join('');
    return `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:blog</id><title>Atom blog</title><updated>2026-01-01T00:00:00Z</updated>${entries}</feed>`;
  }

  publish(item: Item): void {
    this.items.push(item);
    this.version++;
  }
}

for (const backend of backends()) {
  describe(`feeds (${backend})`, () => {
    let env: TelegramApp;
    const host = new FeedHost();
    const refused = new FeedHost();
    before(async () => {
      await host.start();
      await refused.start();
      env = await startTelegramApp(
        backend,
        { ALLOW_PRIVATE_HOSTS: new URL(host.url).host, FEEDS_POLL_INTERVAL_MS: '0' },
        {
          // Stands for a crash between an item's post and its seen mark: the first attempt to mark
          // the item `crash-once` seen fails (a sequence is not rolled back, so only once).
          prepareDatabase: async (db) => {
            await db.execute(sql.raw('CREATE SEQUENCE postwave_test_crash_once'));
            await db.execute(
              sql.raw(`CREATE FUNCTION postwave_test_crash_once() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.item_id = 'crash-once' AND nextval('postwave_test_crash_once') = 1 THEN
                    RAISE EXCEPTION 'the process died here (test trigger)';
                  END IF;
                  RETURN NEW;
                END $$`),
            );
            await db.execute(
              sql.raw(
                'CREATE TRIGGER postwave_test_crash_once BEFORE INSERT ON feed_items FOR EACH ROW EXECUTE FUNCTION postwave_test_crash_once()',
              ),
            );
          },
        },
      );
    });
    after(async () => {
      await env?.stop();
      host.server?.close();
      refused.server?.close();
    });

    async function setup(name = 'reader') {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      return { ...user, news };
    }

    test('the first poll marks existing items seen; conditional GET, dedup and the template after that', async () => {
      const { api, news } = await setup();
      host.items = [];
      host.publish({ guid: 'g1', title: 'Old one', link: 'https://blog.example/1', description: 'old' });
      host.publish({ guid: 'g2', title: 'Old two', link: 'https://blog.example/2', description: 'old' });
      const created = await api.json('/api/v1/feeds', {
        json: {
          url: `${host.url}/rss`,
          accountIds: [news],
          template: '{{title}} ({{ link }})\n\n{{summary}}',
          intervalMinutes: 15,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.lastStatus, 'primed');
      assert.equal(created.body.mode, 'draft');
      const id = created.body.id;
      assert.equal((await api.json('/api/v1/posts')).body.posts.length, 0, 'no flood on the first poll');

      const unchanged = await api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' });
      assert.equal(unchanged.body.status, 'not_modified');
      const last = host.requests.at(-1)!;
      assert.equal(last.headers['if-none-match'], `"v${host.version}"`);
      assert.equal(last.status, 304);

      host.publish({
        guid: 'g3',
        title: 'New & shiny',
        link: 'https://blog.example/3',
        description: '<p>The <b>summary</b> &amp; more</p>',
      });
      const polled = await api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' });
      assert.equal(polled.body.status, 'updated', JSON.stringify(polled.body));
      assert.equal(polled.body.newItems, 1);
      assert.equal(polled.body.postIds.length, 1);
      const post = (await api.json(`/api/v1/posts/${polled.body.postIds[0]}`)).body;
      assert.equal(post.status, 'draft');
      assert.deepEqual(post.accountIds, [news]);
      assert.equal(post.message, 'New & shiny (https://blog.example/3)\n\nThe summary & more');

      // A changed document with the same items: nothing new.
      host.version++;
      const again = await api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' });
      assert.equal(again.body.status, 'updated');
      assert.equal(again.body.newItems, 0);
      // An item without guid is known by its link.
      host.publish({ title: 'No guid', link: 'https://blog.example/4', description: '' });
      assert.equal((await api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' })).body.newItems, 1);
      host.version++;
      assert.equal((await api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' })).body.newItems, 0);
      assert.equal((await api.json('/api/v1/posts')).body.posts.length, 2);

      const listed = await api.json('/api/v1/feeds');
      assert.equal(listed.body.feeds.length, 1);
      assert.ok(listed.body.feeds[0].lastPolledAt);
    });

    const dispatch = async () => {
      const res = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(res.status, 200);
      return res.json();
    };

    test('mode now publishes new items; Atom with Last-Modified / If-Modified-Since', async () => {
      const { api, news } = await setup('atom');
      host.atom = [{ id: 'urn:a1', title: 'First', link: 'https://blog.example/a1', summary: 'one' }];
      const created = await api.json('/api/v1/feeds', {
        json: {
          url: `${host.url}/atom`,
          accountIds: [news],
          mode: 'now',
          template: 'Atom: {{title}} {{link}}',
        },
      });
      assert.equal(created.body.lastStatus, 'primed', JSON.stringify(created.body));
      const notModified = await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' });
      assert.equal(notModified.body.status, 'not_modified');
      assert.equal(host.requests.at(-1)!.headers['if-modified-since'], host.atomModified.toUTCString());

      host.atom.unshift({ id: 'urn:a2', title: 'Second', link: 'https://blog.example/a2', summary: 'two' });
      host.atomModified = new Date('2026-01-02T00:00:00Z');
      const polled = await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' });
      assert.equal(polled.body.newItems, 1);
      // Stored due now with its seen mark; the dispatcher publishes it (here: the dispatch endpoint).
      const stored = (await api.json(`/api/v1/posts/${polled.body.postIds[0]}`)).body;
      assert.equal(stored.status, 'scheduled');
      assert.ok(Date.parse(stored.scheduledAt) <= Date.now());
      await dispatch();
      const post = (await api.json(`/api/v1/posts/${polled.body.postIds[0]}`)).body;
      assert.equal(post.status, 'posted', JSON.stringify(post));
      assert.equal(
        env.telegram.sent.filter((m) => m.text === 'Atom: Second https://blog.example/a2').length,
        1,
      );
    });

    test('an item whose post and seen mark did not commit comes back on the next poll, posted once', async () => {
      const { api, news } = await setup('crash');
      host.items = [];
      host.publish({ guid: 'before', title: 'Before', link: 'https://blog.example/b', description: '' });
      const created = await api.json('/api/v1/feeds', {
        json: { url: `${host.url}/rss`, accountIds: [news], mode: 'now', template: 'Crash: {{title}}' },
      });
      assert.equal(created.body.lastStatus, 'primed');
      host.publish({
        guid: 'crash-once',
        title: 'Survivor',
        link: 'https://blog.example/s',
        description: '',
      });
      const crashed = await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' });
      assert.equal(crashed.body.status, 'failed', JSON.stringify(crashed.body));
      assert.equal(
        (await api.json('/api/v1/posts')).body.posts.length,
        0,
        'the post rolled back with the mark',
      );

      const retried = await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' });
      assert.equal(retried.body.status, 'updated', JSON.stringify(retried.body));
      assert.equal(retried.body.newItems, 1, 'the item was not lost');
      host.version++;
      assert.equal(
        (await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' })).body.newItems,
        0,
      );
      await dispatch();
      const posts = (await api.json('/api/v1/posts')).body.posts;
      assert.deepEqual(
        posts.map((p: { message: string; status: string }) => [p.message, p.status]),
        [['Crash: Survivor', 'posted']],
      );
      assert.equal(env.telegram.sent.filter((m) => m.text === 'Crash: Survivor').length, 1);
    });

    test('mode queue puts each new item in the next free slot of the accounts’ queue', async () => {
      const { api, news } = await setup('queued');
      const queue = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: {
          timezone: 'Europe/Berlin',
          slots: [
            { weekday: 1, time: '09:00' },
            { weekday: 4, time: '17:30' },
          ],
        },
      });
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      const [first, second] = queue.body.freeSlots;
      host.items = [];
      const created = await api.json('/api/v1/feeds', {
        json: { url: `${host.url}/rss`, accountIds: [news], mode: 'queue', template: 'Queued: {{title}}' },
      });
      assert.equal(created.body.mode, 'queue');
      host.publish({ guid: 'q1', title: 'One', link: 'https://blog.example/q1', description: '' });
      host.publish({ guid: 'q2', title: 'Two', link: 'https://blog.example/q2', description: '' });
      const polled = await api.json(`/api/v1/feeds/${created.body.id}/poll`, { method: 'POST' });
      assert.equal(polled.body.postIds.length, 2, JSON.stringify(polled.body));
      const times = [];
      for (const id of polled.body.postIds) {
        const post = (await api.json(`/api/v1/posts/${id}`)).body;
        assert.equal(post.status, 'scheduled');
        times.push(post.scheduledAt);
      }
      assert.deepEqual(times.sort(), [first, second].sort());

      // An account without queue slots: the item waits as a draft, and the reason is shown.
      const bare = await connectTelegram(api, '@updates', bots.second);
      const noSlots = await api.json('/api/v1/feeds', {
        json: { url: `${host.url}/slow`, accountIds: [bare], mode: 'queue' },
      });
      host.publish({ guid: 'q3', title: 'Three', link: 'https://blog.example/q3', description: '' });
      const waiting = await api.json(`/api/v1/feeds/${noSlots.body.id}/poll`, { method: 'POST' });
      assert.equal(waiting.body.postIds.length, 1, JSON.stringify(waiting.body));
      assert.match(waiting.body.error, /queue slots/);
      assert.equal((await api.json(`/api/v1/posts/${waiting.body.postIds[0]}`)).body.status, 'draft');
    });

    test('a feed on a private host is refused at save (422 on url, as webhooks) and nothing is fetched', async () => {
      const { api, news } = await setup('ssrf');
      // Contract D: a user-chosen URL is checked SSRF-safe when it is saved, not stored to fail.
      for (const url of [`${refused.url}/rss`, 'http://10.1.2.3/feed', 'https://169.254.169.254/feed']) {
        const created = await api.json('/api/v1/feeds', { json: { url, accountIds: [news] } });
        assert.equal(created.status, 422, url);
        assert.deepEqual(
          created.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
          [['url', 'url_not_allowed']],
          url,
        );
      }
      assert.deepEqual((await api.json('/api/v1/feeds')).body.feeds, []);

      // Changing a feed's URL is checked the same way; the feed keeps its URL.
      const kept = await api.json('/api/v1/feeds', {
        json: { url: `${host.url}/rss`, accountIds: [news], enabled: false },
      });
      assert.equal(kept.status, 201);
      const moved = await api.json(`/api/v1/feeds/${kept.body.id}`, {
        method: 'PATCH',
        json: { url: 'http://10.1.2.3/feed' },
      });
      assert.equal(moved.status, 422);
      assert.equal(moved.body.errors[0].path, 'url');
      assert.equal((await api.json(`/api/v1/feeds/${kept.body.id}`)).body.url, `${host.url}/rss`);

      // A public name that does not resolve now may later: saved, checked again by every poll.
      const later = await api.json(`/api/v1/feeds/${kept.body.id}`, {
        method: 'PATCH',
        json: { url: 'https://feeds.invalid/rss.xml' },
      });
      assert.equal(later.status, 200, JSON.stringify(later.body));
      assert.equal(refused.requests.length, 0);
    });

    test('one poll at a time per feed (lease); validation, ownership, update and delete', async () => {
      const { api, news } = await setup('owner');
      const created = await api.json('/api/v1/feeds', {
        json: { url: `${host.url}/slow`, accountIds: [news] },
      });
      const id = created.body.id;
      host.version++;
      const [a, b] = await Promise.all([
        api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' }),
        api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' }),
      ]);
      assert.deepEqual([a.body.status, b.body.status].sort(), ['busy', 'updated']);

      // Contract B: a well-typed URL that is not http(s) is 422; a URL that is not a string, 400.
      assert.equal(
        (await api.json('/api/v1/feeds', { json: { url: 'ftp://x', accountIds: [news] } })).status,
        422,
      );
      assert.equal((await api.json('/api/v1/feeds', { json: { url: 7, accountIds: [news] } })).status, 400);
      const other = await setup('stranger');
      const foreign = await other.api.json('/api/v1/feeds', {
        json: { url: `${host.url}/rss`, accountIds: [news] },
      });
      assert.equal(foreign.status, 422);
      assert.equal((await other.api.json(`/api/v1/feeds/${id}`)).status, 404);
      assert.equal((await other.api.json(`/api/v1/feeds/${id}/poll`, { method: 'POST' })).status, 404);
      assert.equal((await other.api.json(`/api/v1/feeds/${id}`, { method: 'DELETE' })).status, 404);

      const patched = await api.json(`/api/v1/feeds/${id}`, {
        method: 'PATCH',
        json: { enabled: false, template: '{{link}}', intervalMinutes: 60 },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.enabled, false);
      assert.equal(patched.body.intervalMinutes, 60);
      assert.equal((await api.json(`/api/v1/feeds/${id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await api.json(`/api/v1/feeds/${id}`)).status, 404);
    });

    test('MCP tools add, list, poll, change and delete a feed', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-feeds');
      const news = await connectTelegram(browser, '@news', bots.main);
      const { client } = await connect(env.app.url, browser);
      const created = await client.callTool({
        name: 'create_feed',
        arguments: { url: `${host.url}/rss`, accountIds: [news], template: '{{title}}', name: 'Blog' },
      });
      assert.equal(created.isError, undefined, JSON.stringify(created.content));
      // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON
      const feed = created.structuredContent as any;
      assert.equal(feed.lastStatus, 'primed');
      // biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON
      const listed = (await client.callTool({ name: 'list_feeds', arguments: {} })).structuredContent as any;
      assert.deepEqual(
        listed.feeds.map((f: { id: string }) => f.id),
        [feed.id],
      );
      host.publish({
        guid: `mcp-${Date.now()}`,
        title: 'Via MCP',
        link: 'https://blog.example/mcp',
        description: '',
      });
      const poll = await client.callTool({ name: 'poll_feed', arguments: { id: feed.id } });
      const polled = poll.structuredContent as { newItems: number };
      assert.equal(polled.newItems, 1);
      const updated = await client.callTool({
        name: 'update_feed',
        arguments: { id: feed.id, enabled: false },
      });
      assert.equal((updated.structuredContent as { enabled: boolean }).enabled, false);
      const deleted = await client.callTool({ name: 'delete_feed', arguments: { id: feed.id } });
      assert.equal(deleted.isError, undefined);
      const missing = await client.callTool({ name: 'delete_feed', arguments: { id: feed.id } });
      assert.equal(missing.isError, true);
      await client.close();
    });
  });
}
