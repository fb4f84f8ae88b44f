/**
 * A fake Telegram Bot API behind a proxy that holds every answer for BENCH_PLATFORM_DELAY_MS, run
 * as its own process so the "platform" does not share the server's event loop. Prints its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeTelegram } from '@postwave/shared/testing';

const delayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 200);
const chatCount = Number(process.env.BENCH_CHATS ?? 50);
const botToken = process.env.BENCH_BOT_TOKEN ?? '123456:benchToken';

const chats = Object.fromEntries(
  Array.from({ length: chatCount }, (_, i) => [`@chan${i}`, { id: -1000 - i, type: 'channel' as const }]),
);
const telegram = await startFakeTelegram({ bots: { [botToken]: { username: 'bench_bot' } }, chats });

const proxy = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const upstream = await fetch(telegram.url + req.url, {
    method: req.method,
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
  const body = Buffer.from(await upstream.arrayBuffer());
  setTimeout(() => {
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    res.end(body);
  }, delayMs);
});
proxy.keepAliveTimeout = 60_000;
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
console.log(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
