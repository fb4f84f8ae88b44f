/**
 * A minimal Telegram Bot API `sendMessage` that answers after BENCH_PLATFORM_DELAY_MS and counts
 * every text it receives, so a benchmark can check that nothing was sent twice. Runs as its own
 * process (the "platform" must not share the dispatcher's event loop). Prints its URL.
 * `GET /stats` → `{ total, distinct, duplicates }`. Replies are chunked unless
 * BENCH_REPLY_LENGTH=declared.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 20);
/** BENCH_REPLY_LENGTH=declared: a Content-Length on every reply, as the real Bot API sends. */
const declareLength = process.env.BENCH_REPLY_LENGTH === 'declared';
const seen = new Map<string, number>();
let total = 0;
let nextId = 1;

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    let duplicates = 0;
    for (const count of seen.values()) duplicates += count - 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ total, distinct: seen.size, duplicates }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
    chat_id?: string | number;
    text?: string;
  };
  const text = body.text ?? '';
  // Only sends are posts: getChat and getMe (account checks, pre-flight) are never counted.
  if (/^\/bot[^/]+\/send/.test(req.url ?? '')) {
    total++;
    seen.set(text, (seen.get(text) ?? 0) + 1);
  }
  const result = {
    message_id: nextId++,
    date: Math.floor(Date.now() / 1000),
    chat: {
      id: -1001,
      type: 'channel',
      title: 'Bench',
      username: String(body.chat_id ?? 'bench').replace(/^@/, ''),
    },
    text,
  };
  setTimeout(() => {
    const reply = JSON.stringify({ ok: true, result });
    res.writeHead(200, {
      'content-type': 'application/json',
      // api.telegram.org declares the length of its replies; unset, Node sends them chunked.
      ...(declareLength ? { 'content-length': Buffer.byteLength(reply) } : {}),
    });
    res.end(reply);
  }, delayMs);
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
