import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { restoreCsvCell } from '@postwave/shared';
import { samplePng } from '@postwave/shared/testing';
import { parse as parseCsv } from 'csv-parse/sync';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

/**
 * Import that works the first time (issue 30): every example in docs/import-export.md imports, the
 * downloadable template imports as it is, and errors name accounts by label and handle, never by id.
 */
const docs = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'import-export.md'), 'utf8');
const examples = [...docs.matchAll(/```(csv|json)\n([\s\S]*?)```/g)].map(([, format, body]) => ({
  format: format as 'csv' | 'json',
  body: body!,
}));

/** Serves any `.png` path as an image: the docs' media host, on loopback. */
async function startImageHost(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url?.endsWith('.png')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(samplePng());
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

/**
 * The example as a reader would use it today: the docs' media host is this test's image host, and
 * the dates (written once, in the docs) are moved to a month ahead, keeping time and offset.
 */
function runnable(body: string, imageHost: string): string {
  const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  return body
    .replaceAll('https://cdn.example.com', imageHost)
    .replace(/\d{4}-\d{2}-\d{2}(?=T\d{2}:\d{2})/g, ahead);
}

async function importFile(api: Client, body: string, type: string, dryRun: boolean) {
  return api.json(`/api/v1/posts/import?dryRun=${dryRun}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
}

for (const backend of backends()) {
  describe(`import as documented (${backend})`, () => {
    let env: TelegramApp;
    let images: Awaited<ReturnType<typeof startImageHost>>;
    before(async () => {
      images = await startImageHost();
      env = await startTelegramApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(images.url).host });
    });
    after(async () => {
      await env?.stop();
      images?.server.close();
    });

    async function setup(name: string) {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      const updates = await connectTelegram(user.api, '@updates', bots.second);
      return { ...user, news, updates };
    }

    test('the docs have examples in both formats', () => {
      assert.ok(examples.some((e) => e.format === 'csv'));
      assert.ok(examples.some((e) => e.format === 'json'));
    });

    test('every example in docs/import-export.md imports: the dry run finds no error and the commit creates every row', async () => {
      for (const [i, example] of examples.entries()) {
        const { api } = await setup(`docs-example-${i}`);
        const type = example.format === 'csv' ? 'text/csv' : 'application/json';
        const body = runnable(example.body, images.url);
        const dry = await importFile(api, body, type, true);
        assert.equal(dry.status, 200, JSON.stringify(dry.body));
        assert.deepEqual(
          dry.body.rows.filter((r: { valid: boolean }) => !r.valid),
          [],
          `example ${i + 1} (${example.format}) has invalid rows: ${JSON.stringify(dry.body.rows)}`,
        );
        const commit = await importFile(api, body, type, false);
        assert.equal(commit.body.committed, true, JSON.stringify(commit.body));
        assert.ok(commit.body.rows.every((r: { postId?: string }) => r.postId));
      }
    });

    test('the CSV template downloads with the person’s accounts and imports as it is', async () => {
      const { api } = await setup('template');
      const response = await api.fetch('/api/v1/posts/import/template');
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename=".*\.csv"/);
      const text = await response.text();
      // Written by the one CSV writer: a cell starting with `@` is neutralised with a quote
      // (docs/import-export.md#csv-safety), and read back as the import reads it.
      assert.match(text, /'@news\|@updates/);
      const rows = parseCsv(text, {
        columns: true,
        cast: (value, context) => (context.header ? value : restoreCsvCell(value)),
      }) as Record<string, string>[];
      assert.ok(rows.length >= 3);
      assert.ok(
        rows.some((r) => r.accounts === '@news|@updates'),
        text,
      );
      assert.ok(rows.some((r) => r.postingMode === 'draft'));
      assert.ok(rows.some((r) => r['thread.1']));
      const dry = await importFile(api, text, 'text/csv', true);
      assert.deepEqual(
        dry.body.rows.filter((r: { valid: boolean }) => !r.valid),
        [],
      );
      const commit = await importFile(api, text, 'text/csv', false);
      assert.equal(commit.body.committed, true);

      // Without accounts the template still downloads, naming a placeholder handle.
      const empty = await userWithToken(env.app.url, 'template-empty');
      const placeholder = await (await empty.api.fetch('/api/v1/posts/import/template')).text();
      assert.match(placeholder, /@your-handle/);
    });

    test('errors name accounts by label and handle, never by internal id', async () => {
      const { api, news, updates } = await setup('names');
      const when = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const body = [
        'scheduledAt,message,accounts',
        `${when},${'x'.repeat(5000)},@news|@updates`,
        `${when},Hello,@nobody`,
      ].join('\r\n');
      const dry = await importFile(api, body, 'text/csv', true);
      assert.equal(dry.status, 200);
      const [tooLong, unknown] = dry.body.rows as { errors: { message: string; accountId?: string }[] }[];
      const messages = JSON.stringify(
        dry.body.rows.flatMap((r: { errors: { message: string }[] }) => r.errors.map((e) => e.message)),
      );
      assert.doesNotMatch(messages, new RegExp(`${news}|${updates}`), 'no internal id in any message');
      assert.ok(tooLong!.errors.length >= 2, JSON.stringify(tooLong));
      const forNews = tooLong!.errors.find((e) => e.accountId === news);
      assert.match(forNews?.message ?? '', /@news \(@news on Telegram\)|@news on Telegram/);
      assert.match(unknown!.errors[0]!.message, /None of your accounts has the handle "@nobody"/);
    });
  });
}
