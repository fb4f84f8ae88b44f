import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import { parse as parseCsv } from 'csv-parse/sync';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A local file host: /photo.png (an image), /note.txt (not media). */
async function startFileServer(): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(samplePng());
    } else if (req.url === '/note.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('just text');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, hits: () => hits };
}

const csv = (rows: string[][]) =>
  `${rows.map((r) => r.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')).join('\r\n')}\r\n`;

async function importFile(
  api: Client,
  body: string,
  options: { dryRun: boolean; type?: string; key?: string },
) {
  return api.json(`/api/v1/posts/import?dryRun=${options.dryRun}`, {
    method: 'POST',
    headers: {
      'content-type': options.type ?? 'text/csv',
      ...(options.key ? { 'idempotency-key': options.key } : {}),
    },
    body,
  });
}

for (const backend of backends()) {
  describe(`import and export (${backend})`, () => {
    let env: TelegramApp;
    let files: Awaited<ReturnType<typeof startFileServer>>;
    let refused: Awaited<ReturnType<typeof startFileServer>>;
    before(async () => {
      files = await startFileServer();
      refused = await startFileServer();
      // Only the first file host is allowed: the second stands for any private address.
      env = await startTelegramApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(files.url).host });
    });
    after(async () => {
      await env?.stop();
      files?.server.close();
      refused?.server.close();
    });

    async function setup(name = 'importer') {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      const updates = await connectTelegram(user.api, '@updates', bots.second);
      return { ...user, news, updates };
    }
    const postCount = async (api: Client) => (await api.json('/api/v1/posts?limit=200')).body.posts.length;

    test('a dry run reports every row (dates, accounts, platform limits, duplicates) and writes nothing', async () => {
      const { api, news, updates } = await setup();
      const when = inDays(3);
      const body = csv([
        ['scheduledAt', 'message', 'accounts', 'media'],
        [when, 'Scheduled by handle', '@news', ''],
        ['next tuesday', 'Bad date', '@news', ''],
        [when, 'Unknown account', '@nope|@news', ''],
        [when, 'y'.repeat(5000), `${news} ${updates}`, ''],
        [when, 'Scheduled by handle', 'news', ''],
        ['', 'A draft, by id', news, ''],
        ['', 'Commas, "quotes"\nand a second line', `telegram:@updates`, ''],
        [inDays(-1), 'In the past', '@news', ''],
        ['', 'A draft to no account', '', ''],
      ]);
      const res = await importFile(api, body, { dryRun: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.committed, false);
      const rows = res.body.rows as {
        index: number;
        valid: boolean;
        errors: { code: string; accountId?: string }[];
      }[];
      assert.deepEqual(
        rows.map((r) => r.valid),
        [true, false, false, false, false, true, true, false, false],
      );
      assert.deepEqual(
        rows.map((r) => r.index),
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
      const codes = (i: number) => rows[i]!.errors.map((e) => e.code);
      assert.deepEqual(codes(1), ['invalid_datetime']);
      assert.deepEqual(codes(2), ['account_not_found']);
      assert.ok(
        rows[3]!.errors.length >= 1 && rows[3]!.errors.every((e) => e.accountId),
        JSON.stringify(rows[3]),
      );
      assert.deepEqual(codes(4), ['duplicate_row']);
      assert.deepEqual(codes(7), ['scheduled_in_past']);
      // A draft goes to at least one account too, as POST /api/v1/posts requires.
      assert.deepEqual(codes(8), ['required']);
      assert.ok(rows.every((r) => !('postId' in r)));
      assert.equal(await postCount(api), 0);

      // The accounts column may also be named as the post request names the field, `accountIds`.
      const named = await importFile(
        api,
        csv([
          ['scheduledAt', 'message', 'accountIds'],
          [when, 'By the request’s own column name', `${news},${updates}`],
        ]),
        { dryRun: true },
      );
      assert.equal(named.status, 200, JSON.stringify(named.body));
      assert.deepEqual(named.body.rows[0].errors, []);
      assert.equal(named.body.rows[0].valid, true);
    });

    test('a commit with one bad row writes nothing; all valid commits every post once, the same file twice creates no duplicates', async () => {
      const { api, news } = await setup();
      const when = inDays(2);
      const bad = csv([
        ['scheduledAt', 'message', 'accounts'],
        [when, 'First', '@news'],
        [when, 'Second', '@missing'],
      ]);
      const refusedCommit = await importFile(api, bad, { dryRun: false });
      assert.equal(refusedCommit.status, 200);
      assert.equal(refusedCommit.body.committed, false);
      assert.equal(await postCount(api), 0);

      const good = csv([
        ['scheduledAt', 'message', 'accounts', 'options.@news.silent'],
        [when, 'First', '@news', ''],
        ['', 'Second, a draft', news, ''],
      ]);
      const committed = await importFile(api, good, { dryRun: false });
      assert.equal(committed.status, 200, JSON.stringify(committed.body));
      assert.equal(committed.body.committed, true);
      const ids = committed.body.rows.map((r: { postId: string }) => r.postId);
      assert.equal(ids.length, 2);
      const first = await api.json(`/api/v1/posts/${ids[0]}`);
      assert.equal(first.body.status, 'scheduled');
      assert.equal(first.body.scheduledAt, new Date(when).toISOString());
      assert.deepEqual(first.body.accountIds, [news]);
      assert.equal((await api.json(`/api/v1/posts/${ids[1]}`)).body.status, 'draft');

      const again = await importFile(api, good, { dryRun: false });
      assert.equal(again.body.committed, true);
      assert.deepEqual(
        again.body.rows.map((r: { postId: string }) => r.postId),
        ids,
      );
      assert.equal(await postCount(api), 2);

      // Idempotency-Key: the same answer replayed, byte for byte.
      const other = csv([
        ['message', 'accounts'],
        ['Keyed draft', '@news'],
      ]);
      const keyed = await importFile(api, other, { dryRun: false, key: 'import-1' });
      const replay = await importFile(api, other, { dryRun: false, key: 'import-1' });
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, keyed.body);
      assert.equal(await postCount(api), 3);
    });

    test('media URLs are fetched through the SSRF-safe fetch into storage, once; private hosts are refused', async () => {
      const { api } = await setup();
      const hitsBefore = files.hits();
      const body = csv([
        ['message', 'accounts', 'media', 'scheduledAt'],
        ['With a photo', '@news', `${files.url}/photo.png`, inDays(1)],
        ['Same photo again', '@news', `${files.url}/photo.png`, inDays(1)],
        ['Not media', '@news', `${files.url}/note.txt`, ''],
        ['Private host', '@news', `${refused.url}/photo.png`, ''],
      ]);
      const dry = await importFile(api, body, { dryRun: true });
      assert.equal(dry.status, 200, JSON.stringify(dry.body));
      assert.deepEqual(
        dry.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true, false, false],
      );
      assert.equal(dry.body.rows[2].errors[0].path, 'media[0]');
      assert.equal(dry.body.rows[3].errors[0].code, 'url_not_allowed');
      assert.equal(refused.hits(), 0);

      const fixed = csv([
        ['message', 'accounts', 'media', 'scheduledAt'],
        ['With a photo', '@news', `${files.url}/photo.png`, inDays(1)],
        ['Same photo again', '@news', `${files.url}/photo.png`, inDays(1)],
      ]);
      const committed = await importFile(api, fixed, { dryRun: false });
      assert.equal(committed.body.committed, true, JSON.stringify(committed.body));
      // One download for the dry run, reused by the commit and the second row.
      assert.equal(files.hits() - hitsBefore, 2);
      const post = (await api.json(`/api/v1/posts/${committed.body.rows[0].postId}`)).body;
      assert.equal(post.media.length, 1);
      assert.equal(post.media[0].contentType, 'image/png');
      const media = await fetch(post.media[0].url);
      assert.equal(media.status, 200);
      assert.deepEqual(Buffer.from(await media.arrayBuffer()), samplePng());
    });

    test('JSON import takes post requests; bad requests are refused with the right status', async () => {
      const { api, news, updates } = await setup();
      const res = await importFile(
        api,
        JSON.stringify([
          { message: 'json draft', accountIds: [news] },
          {
            message: 'json scheduled',
            accountIds: ['@updates'],
            scheduledAt: inDays(5),
            postingMode: 'schedule',
          },
          { message: 'publish now?', accountIds: [news], postingMode: 'now' },
          { message: 42, accountIds: [news] },
        ]),
        { dryRun: true, type: 'application/json' },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true, false, false],
      );
      assert.equal(res.body.rows[2].errors[0].code, 'invalid_posting_mode');
      assert.ok(updates);

      assert.equal((await importFile(api, 'a,b', { dryRun: true, type: 'text/plain' })).status, 415);
      const malformed = await importFile(api, 'message,accounts\n"unclosed,x\n', { dryRun: true });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.code, 'invalid_request');
      assert.equal((await importFile(api, 'accounts\n@news\n', { dryRun: true })).status, 400);
      assert.equal(
        (await importFile(api, '{"not":"array"}', { dryRun: true, type: 'application/json' })).status,
        400,
      );
      const many = `message\n${'x\n'.repeat(1001)}`;
      const tooMany = await importFile(api, many, { dryRun: true });
      assert.equal(tooMany.status, 422);
      assert.equal(tooMany.body.errors[0].code, 'too_many_rows');
      assert.equal(
        (await importFile(api, 'message\nx\n', { dryRun: 'maybe' as unknown as boolean })).status,
        400,
      );
      const other = await userWithToken(env.app.url, 'outsider');
      const foreign = await importFile(
        other.api,
        csv([
          ['message', 'accounts'],
          ['x', news],
        ]),
        { dryRun: true },
      );
      assert.equal(foreign.body.rows[0].errors[0].code, 'account_not_found');
    });

    test('export streams CSV (quoted) and JSON with results, filtered by status and dates, and reads back', async () => {
      const { api, news } = await setup('exporter');
      const posted = await api.json('/api/v1/posts', {
        json: { message: 'Posted, with "quotes", commas\nand lines', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(posted.body.status, 'posted');
      const when = inDays(10);
      await api.json('/api/v1/posts', {
        json: { message: 'Scheduled one', accountIds: [news], postingMode: 'schedule', scheduledAt: when },
      });
      await api.json('/api/v1/posts', {
        json: { message: 'A draft', accountIds: [news], postingMode: 'draft' },
      });

      const all = await api.fetch('/api/v1/posts/export?format=csv');
      assert.equal(all.status, 200);
      assert.match(all.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(
        all.headers.get('content-disposition') ?? '',
        /attachment; filename="postwave-posts-.*\.csv"/,
      );
      const records = parseCsv(await all.text(), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        records.map((r) => r.status),
        ['posted', 'scheduled', 'draft'],
      );
      assert.equal(records[0]!.message, 'Posted, with "quotes", commas\nand lines');
      assert.equal(JSON.parse(records[0]!.results!)[0].status, 'posted');
      assert.equal(records[1]!.postingMode, 'schedule');

      const postedOnly = await api.json('/api/v1/posts/export?format=json&status=posted');
      assert.equal(postedOnly.body.length, 1);
      assert.equal(postedOnly.body[0].results[0].status, 'posted');

      const later = await api.json(`/api/v1/posts/export?format=json&from=${encodeURIComponent(inDays(5))}`);
      assert.deepEqual(
        later.body.map((p: { message: string }) => p.message),
        ['Scheduled one'],
      );
      const before = await api.json(
        `/api/v1/posts/export?format=json&to=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`,
      );
      assert.equal(before.body.length, 2);
      // An HTML form's blank fields mean no filter.
      const blank = await api.fetch('/api/v1/posts/export?format=csv&status=&from=&to=');
      assert.equal(blank.status, 200);
      assert.equal((parseCsv(await blank.text(), { columns: true }) as unknown[]).length, 3);
      assert.equal((await api.json('/api/v1/posts/export?format=xml')).status, 400);
      assert.equal((await api.json('/api/v1/posts/export?from=yesterday')).status, 400);
      const empty = await (await api.fetch('/api/v1/posts/export?format=json&status=failed')).text();
      assert.deepEqual(JSON.parse(empty), []);

      // The export reads back: scheduled stays scheduled, the rest come back as drafts.
      const exported = await (await api.fetch('/api/v1/posts/export?format=json')).text();
      const back = await importFile(api, exported, { dryRun: true, type: 'application/json' });
      assert.deepEqual(
        back.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true, true],
      );
      const csvBack = await importFile(api, await (await api.fetch('/api/v1/posts/export')).text(), {
        dryRun: true,
      });
      assert.deepEqual(
        csvBack.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true, true],
        JSON.stringify(csvBack.body),
      );

      // Another user's export is their own: empty.
      const other = await userWithToken(env.app.url, 'nosy');
      assert.deepEqual(await other.api.json('/api/v1/posts/export?format=json').then((r) => r.body), []);
    });

    test('composer fields (overrides, thread, firstComment, altText) import from CSV and JSON and survive an export round trip', async () => {
      const { api, news, updates } = await setup('composer');
      const photo = `${files.url}/photo.png`;
      const when = inDays(4);
      const table = [
        [
          'scheduledAt',
          'message',
          'accounts',
          'media',
          'altText',
          'overrides',
          'thread.1',
          'thread.2',
          'options.@news.firstComment',
        ],
        [
          when,
          'Base text',
          '@news|@updates',
          photo,
          '["A red square"]',
          JSON.stringify({ '@updates': { message: 'Shorter for updates' } }),
          'Part two',
          'Part three',
          '',
        ],
        ['', 'A draft with a first comment', '@news', '', '', '', '', '', 'Read more below'],
        [when, 'Scheduled with a comment Telegram cannot post', '@news', '', '', '', '', '', 'Nope'],
        ['', 'Override for a stranger', '@news', '', '', '{"@nobody":{"message":"x"}}', '', '', ''],
        ['', 'Bad JSON', '@news', '', '', '{oops', '', '', ''],
      ];
      const body = csv(table);
      const dry = await importFile(api, body, { dryRun: true });
      assert.equal(dry.status, 200, JSON.stringify(dry.body));
      const codes = dry.body.rows.map((r: { errors: { code: string }[] }) => r.errors.map((e) => e.code));
      assert.deepEqual(codes.slice(0, 2), [[], []], JSON.stringify(dry.body));
      assert.deepEqual(codes.slice(2), [
        ['first_comment_unsupported'],
        ['override_unknown_account'],
        ['invalid_json'],
      ]);

      const good = csv(table.slice(0, 3));
      const committed = await importFile(api, good, { dryRun: false });
      assert.equal(committed.body.committed, true, JSON.stringify(committed.body));
      const [scheduled, draft] = await Promise.all(
        committed.body.rows.map(
          async (r: { postId: string }) => (await api.json(`/api/v1/posts/${r.postId}`)).body,
        ),
      );
      assert.equal(scheduled.status, 'scheduled');
      assert.equal(scheduled.media[0].altText, 'A red square');
      assert.deepEqual(scheduled.overrides, { [updates]: { message: 'Shorter for updates' } });
      assert.deepEqual(
        scheduled.thread.map((p: { message: string }) => p.message),
        ['Part two', 'Part three'],
      );
      assert.equal(draft.status, 'draft');
      assert.deepEqual(draft.accountOptions, { [news]: { firstComment: 'Read more below' } });

      // JSON: a full post request per row, with URL media and alt text in a thread part.
      const json = JSON.stringify([
        {
          message: 'JSON base',
          accountIds: ['@news'],
          postingMode: 'schedule',
          scheduledAt: inDays(6),
          thread: [{ message: 'JSON part', media: [{ url: photo, altText: 'Square in a reply' }] }],
          overrides: { '@news': { message: 'JSON override' } },
        },
        // Contract B: unknown fields are ignored, also inside thread parts; a wrong type is not.
        { message: 'JSON extra', accountIds: ['@news'], thread: [{ message: 'x', extra: 1 }] },
        { message: 'JSON wrong type', accountIds: ['@news'], thread: [{ message: 7 }] },
      ]);
      const jsonDry = await importFile(api, json, { dryRun: true, type: 'application/json' });
      assert.equal(jsonDry.body.rows[0].valid, true, JSON.stringify(jsonDry.body));
      assert.equal(jsonDry.body.rows[1].valid, true, JSON.stringify(jsonDry.body.rows[1]));
      assert.equal(jsonDry.body.rows[2].valid, false);
      const jsonCommit = await importFile(api, JSON.stringify([JSON.parse(json)[0]]), {
        dryRun: false,
        type: 'application/json',
      });
      const fromJson = (await api.json(`/api/v1/posts/${jsonCommit.body.rows[0].postId}`)).body;
      assert.equal(fromJson.thread[0].media[0].altText, 'Square in a reply');
      assert.deepEqual(fromJson.overrides, { [news]: { message: 'JSON override' } });

      // Export and import again (both formats): the composer fields come back as they were.
      const fields = (p: Record<string, unknown>) => ({
        message: p.message,
        overrides: p.overrides,
        thread: (p.thread as { message: string; media: { key: string; altText?: string }[] }[]).map((t) => ({
          message: t.message,
          media: t.media.map((m) => [m.key, m.altText]),
        })),
        media: (p.media as { key: string; altText?: string }[]).map((m) => [m.key, m.altText]),
        accountOptions: p.accountOptions,
      });
      const original = (await api.json('/api/v1/posts/export?format=json')).body.map(fields);
      for (const format of ['csv', 'json'] as const) {
        const exported = await (await api.fetch(`/api/v1/posts/export?format=${format}`)).text();
        const back = await importFile(api, exported, {
          dryRun: false,
          type: format === 'csv' ? 'text/csv' : 'application/json',
        });
        assert.equal(back.body.committed, true, JSON.stringify(back.body));
        const copies = await Promise.all(
          back.body.rows.map(async (r: { postId: string }) =>
            fields((await api.json(`/api/v1/posts/${r.postId}`)).body),
          ),
        );
        assert.deepEqual(copies, original, format);
        for (const r of back.body.rows)
          assert.equal((await api.json(`/api/v1/posts/${r.postId}`, { method: 'DELETE' })).status, 204);
      }
    });

    test('postingMode queue takes the next free queue slots in file order, under the queue lock', async () => {
      const { api, news, updates } = await setup('queue-import');
      const queue = await api.json(`/api/v1/accounts/${news}/queue`, {
        method: 'PUT',
        json: {
          timezone: 'America/New_York',
          slots: [
            { weekday: 2, time: '08:15' },
            { weekday: 5, time: '12:00' },
          ],
        },
      });
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      const [first, second, third] = queue.body.freeSlots;
      const body = csv([
        ['postingMode', 'message', 'accounts'],
        ['queue', 'Queued one', '@news'],
        ['queue', 'Queued two', '@news'],
      ]);
      assert.deepEqual(
        (await importFile(api, body, { dryRun: true })).body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true],
      );
      // A post already scheduled on the first slot keeps it.
      await api.json('/api/v1/posts', {
        json: { message: 'On the slot', accountIds: [news], postingMode: 'schedule', scheduledAt: first },
      });
      const committed = await importFile(api, body, { dryRun: false });
      assert.equal(committed.body.committed, true, JSON.stringify(committed.body));
      const times = [];
      for (const r of committed.body.rows) {
        const post = (await api.json(`/api/v1/posts/${r.postId}`)).body;
        assert.equal(post.status, 'scheduled');
        times.push(post.scheduledAt);
      }
      assert.deepEqual(times, [second, third]);

      // An account without slots: the dry run says so, and a commit writes nothing.
      const bare = csv([
        ['postingMode', 'message', 'accounts'],
        ['queue', 'No slots here', '@updates'],
        ['draft', 'A draft', '@updates'],
      ]);
      const dry = await importFile(api, bare, { dryRun: true });
      assert.deepEqual(
        dry.body.rows[0].errors.map((e: { code: string; accountId?: string }) => [e.code, e.accountId]),
        [['queue_empty', updates]],
      );
      const before = await postCount(api);
      const refused = await importFile(api, bare, { dryRun: false });
      assert.equal(refused.body.committed, false);
      assert.equal(await postCount(api), before);
      const tooFew = csv([
        ['postingMode', 'message', 'accounts'],
        ['later', 'x', '@news'],
      ]);
      assert.equal(
        (await importFile(api, tooFew, { dryRun: true })).body.rows[0].errors[0].code,
        'invalid_posting_mode',
      );
    });

    test('recycle on a row (JSON field or CSV column) is kept, checked like POST /api/v1/posts, and survives an export round trip', async () => {
      const { api, news } = await setup('recycler');
      const recycle = { intervalDays: 30, maxTimes: 4, jitterMinutes: 15 };
      const rows = [
        { message: 'evergreen json', accountIds: [news], scheduledAt: inDays(3), recycle },
        {
          message: 'too often',
          accountIds: [news],
          scheduledAt: inDays(3),
          recycle: { intervalDays: 2, maxTimes: 4 },
        },
        {
          message: 'until passed',
          accountIds: [news],
          recycle: { ...recycle, until: '2020-01-01T00:00:00Z' },
        },
      ];
      const dry = await importFile(api, JSON.stringify(rows), { dryRun: true, type: 'application/json' });
      assert.equal(dry.status, 200, JSON.stringify(dry.body));
      assert.deepEqual(
        dry.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, false, false],
      );
      assert.equal(dry.body.rows[1].errors[0].path, 'recycle.intervalDays');
      assert.equal(dry.body.rows[2].errors[0].path, 'recycle.until');

      const json = await importFile(api, JSON.stringify([rows[0]]), {
        dryRun: false,
        type: 'application/json',
      });
      assert.equal(json.body.committed, true, JSON.stringify(json.body));
      const fromJson = await api.json(`/api/v1/posts/${json.body.rows[0].postId}`);
      assert.deepEqual(fromJson.body.recycle, recycle);

      const fromCsv = await importFile(
        api,
        csv([
          ['message', 'accounts', 'scheduledAt', 'recycle'],
          ['evergreen csv', news, inDays(3), JSON.stringify({ intervalDays: 60, maxTimes: 2 })],
          ['bad recycle cell', news, inDays(3), '{oops'],
        ]),
        { dryRun: true },
      );
      assert.deepEqual(
        fromCsv.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, false],
      );
      assert.equal(fromCsv.body.rows[1].errors[0].path, 'recycle');

      // An export reads back with its recycling, in either format.
      const exported = await (await api.fetch('/api/v1/posts/export?format=csv')).text();
      const records = parseCsv(exported, { columns: true }) as Record<string, string>[];
      assert.deepEqual(JSON.parse(records[0]!.recycle!), recycle);
      await api.json(`/api/v1/posts/${json.body.rows[0].postId}`, { method: 'DELETE' });
      const again = await importFile(api, exported, { dryRun: false });
      assert.equal(again.body.committed, true, JSON.stringify(again.body));
      assert.deepEqual((await api.json(`/api/v1/posts/${again.body.rows[0].postId}`)).body.recycle, recycle);
      const exportedJson = await (await api.fetch('/api/v1/posts/export?format=json')).text();
      await api.json(`/api/v1/posts/${again.body.rows[0].postId}`, { method: 'DELETE' });
      const againJson = await importFile(api, exportedJson, { dryRun: false, type: 'application/json' });
      assert.equal(againJson.body.committed, true, JSON.stringify(againJson.body));
      assert.deepEqual(
        (await api.json(`/api/v1/posts/${againJson.body.rows[0].postId}`)).body.recycle,
        recycle,
      );
    });

    test('a JSON row with templateId starts from the template as POST /api/v1/posts does; an unknown one is that row’s error', async () => {
      const { api, news, updates } = await setup('templated');
      const template = await api.json('/api/v1/templates', {
        json: {
          name: 'Weekly',
          message: 'From the template',
          accountIds: [news],
          thread: [{ message: 'Second part' }],
          accountOptions: { [news]: { disableNotification: true } },
        },
      });
      assert.equal(template.status, 201, JSON.stringify(template.body));
      const rows = [
        { templateId: template.body.id },
        { templateId: template.body.id, message: 'Mine wins', accountIds: [updates], scheduledAt: inDays(2) },
        { templateId: crypto.randomUUID(), message: 'x', accountIds: [news] },
      ];
      const dry = await importFile(api, JSON.stringify(rows), { dryRun: true, type: 'application/json' });
      assert.equal(dry.status, 200, JSON.stringify(dry.body));
      assert.deepEqual(
        dry.body.rows.map((r: { valid: boolean }) => r.valid),
        [true, true, false],
      );
      assert.equal(dry.body.rows[2].errors[0].path, 'templateId');
      assert.equal(dry.body.rows[2].errors[0].code, 'template_not_found');

      const committed = await importFile(api, JSON.stringify(rows.slice(0, 2)), {
        dryRun: false,
        type: 'application/json',
      });
      assert.equal(committed.body.committed, true, JSON.stringify(committed.body));
      const [first, second] = await Promise.all(
        committed.body.rows.map(
          async (r: { postId: string }) => (await api.json(`/api/v1/posts/${r.postId}`)).body,
        ),
      );
      assert.equal(first.message, 'From the template');
      assert.deepEqual(first.accountIds, [news]);
      assert.deepEqual(
        first.thread.map((p: { message: string }) => p.message),
        ['Second part'],
      );
      assert.deepEqual(first.accountOptions, { [news]: { disableNotification: true } });
      assert.equal(first.status, 'draft');
      assert.equal(second.message, 'Mine wins');
      assert.deepEqual(second.accountIds, [updates]);
      assert.deepEqual(second.accountOptions, {}, 'options of accounts the post does not go to are dropped');
      assert.equal(second.status, 'scheduled');
    });

    test('export pages through more posts than one page without losing or repeating any', async () => {
      const { api, news } = await setup('bulk');
      const rows = [['message', 'accounts']];
      for (let i = 0; i < 450; i++) rows.push([`bulk ${i}`, news]);
      const committed = await importFile(api, csv(rows), { dryRun: false });
      assert.equal(committed.body.committed, true);
      const records = parseCsv(await (await api.fetch('/api/v1/posts/export?format=csv')).text(), {
        columns: true,
      }) as Record<string, string>[];
      assert.equal(records.length, 450);
      assert.equal(new Set(records.map((r) => r.id)).size, 450);
      assert.deepEqual(
        records.slice(0, 3).map((r) => r.message),
        ['bulk 0', 'bulk 1', 'bulk 2'],
      );
    });
  });
}
