/**
 * A fake Telegram Bot API behind a proxy that answers every call BENCH_PLATFORM_DELAY_MS after it
 * arrived (the fake's own work counts within that time, as a real platform's would), run as its
 * own process so the "platform" does not share the server's event loop. Prints its URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeTelegram } from '@postwave/shared/testing';

const delayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 200);
const chatCount = Number(process.env.BENCH_CHATS ?? 50);
const botTokens = (process.env.BENCH_BOT_TOKENS ?? process.env.BENCH_BOT_TOKEN ?? '123456:benchToken').split(
  ',',
);

const chats = Object.fromEntries(
  Array.from({ length: chatCount }, (_, i) => [`@chan${i}`, { id: -1000 - i, type: 'channel' as const }]),
);
const telegram = await startFakeTelegram({
  bots: Object.fromEntries(botTokens.map((token, i) => [token, { username: `bench_bot${i}` }])),
  chats,
});

const proxy = createServer(async (req, res) => {
  const arrived = performance.now();
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const upstream = await fetch(telegram.url + req.url, {
    method: req.method,
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
  const body = Buffer.from(await upstream.arrayBuffer());
  setTimeout(
    () => {
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    },
    Math.max(0, delayMs - (performance.now() - arrived)),
  );
});
proxy.keepAliveTimeout = 60_000;
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
console.log(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
