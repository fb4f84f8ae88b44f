import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { PlatformError } from '../../src/errors.ts';
import {
  capResponse,
  parseMaxReplyBytes,
  platformFetch,
  ReplyTooLargeError,
  readJson,
  readJsonCapped,
} from '../../src/http/index.ts';

const MiB = 1024 * 1024;

/** A platform that answers 200 MB of JSON (with or without Content-Length) and counts what it managed to send. */
describe('reply bodies are capped', () => {
  let server: Server;
  let base: string;
  const sent = { bytes: 0 };
  before(async () => {
    server = createServer((req, res) => {
      const total = 200 * MiB;
      const declared = req.url === '/declared';
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(total) } : {}),
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      chunk[0] = 0x5b; // '[' so it starts like JSON
      sent.bytes = 0;
      const pump = () => {
        while (sent.bytes < total) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('a 200 MB reply without Content-Length fails cleanly after 8 MiB; the stream is aborted', async () => {
    const before = process.memoryUsage().rss;
    const response = await platformFetch(`${base}/chunked`);
    await assert.rejects(readJson(response), (error: unknown) => {
      assert.ok(error instanceof PlatformError, String(error));
      assert.equal(error.code, 'platform_unavailable');
      assert.equal(error.retryable, false);
      assert.match(error.message, /larger than 8388608 bytes/);
      return true;
    });
    await new Promise((r) => setTimeout(r, 100));
    // Sockets buffer a little; far less than the 200 MB the server wanted to send got out.
    assert.ok(sent.bytes < 64 * MiB, `server sent ${sent.bytes} bytes`);
    const grown = process.memoryUsage().rss - before;
    assert.ok(grown < 100 * MiB, `rss grew by ${grown} bytes`);
  });

  test('a declared Content-Length over the cap fails before reading', async () => {
    await assert.rejects(platformFetch(`${base}/declared`), (error: unknown) => {
      assert.ok(error instanceof PlatformError);
      assert.match(error.message, /MAX_REPLY_BYTES/);
      return true;
    });
  });

  test('readJsonCapped and capResponse honour an explicit limit', async () => {
    const small = new Response(JSON.stringify({ ok: true }));
    assert.deepEqual(await readJsonCapped(small, 100), { ok: true });
    await assert.rejects(readJsonCapped(new Response('x'.repeat(101)), 100), ReplyTooLargeError);
    const capped = capResponse(new Response('y'.repeat(50)), 10);
    await assert.rejects(capped.text());
  });

  test('MAX_REPLY_BYTES parsing', () => {
    assert.equal(parseMaxReplyBytes(undefined), 8 * MiB);
    assert.equal(parseMaxReplyBytes('1024'), 1024);
    assert.throws(() => parseMaxReplyBytes('-1'), /MAX_REPLY_BYTES/);
    assert.throws(() => parseMaxReplyBytes('lots'), /MAX_REPLY_BYTES/);
  });
});

describe('replies that declare their length within the cap', () => {
  let server: Server;
  let base: string;
  const small = JSON.stringify({ ok: true, result: { message_id: 7 } });
  before(async () => {
    const { gzipSync } = await import('node:zlib');
    // 9 MiB of spaces inflate from a few KiB: a Content-Length of encoded bytes says nothing of them.
    const bomb = gzipSync(Buffer.concat([Buffer.from('['), Buffer.alloc(9 * MiB, 0x20), Buffer.from(']')]));
    server = createServer((req, res) => {
      if (req.url === '/gzip') {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        });
        return void res.end(bomb);
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(small) });
      res.end(small);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('are read as they are, and settle once read (the deadline is let go of)', async () => {
    let settled = 0;
    const response = capResponse(await fetch(`${base}/small`), 8 * MiB, () => settled++);
    assert.equal(settled, 0);
    assert.deepEqual(await readJsonCapped(response), JSON.parse(small));
    assert.equal(settled, 1);
    assert.deepEqual(await readJson(await platformFetch(`${base}/small`)), JSON.parse(small));
  });

  test('a compressed reply is still counted as it inflates: a gzip bomb fails at the cap', async () => {
    let settled = 0;
    const response = capResponse(await fetch(`${base}/gzip`), 8 * MiB, () => settled++);
    await assert.rejects(readJsonCapped(response), ReplyTooLargeError);
    assert.equal(settled, 1);
  });
});
