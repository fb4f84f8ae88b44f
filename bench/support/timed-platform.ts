/**
 * A fake platform in its own process (it must not share the dispatcher's event loop) that times
 * what it receives: Telegram's `sendMessage` (no dedupe) and Mastodon's `POST /api/v1/statuses`
 * (honours `Idempotency-Key`, as Mastodon does). A text starting `due:<ms>:` is timed against that
 * due time on its first receipt. Answers after BENCH_PLATFORM_DELAY_MS, or a random delay up to
 * BENCH_PLATFORM_JITTER_MS more. Prints its URL.
 * `GET /stats` → per platform `{ received, created, distinct, duplicates, replayed }` and the
 * lateness samples (ms, first receipt), and per Telegram bot what a rate-limiting platform would
 * watch: `bots: { [token]: { sent, peakConcurrent, maxPerSecond } }` (most sends in flight at
 * once, most received within any 1,000 ms); `POST /reset` clears everything.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 0);
const jitterMs = Number(process.env.BENCH_PLATFORM_JITTER_MS ?? 0);

interface Tally {
  received: number;
  /** Texts by how many posts they became (a duplicate is a text posted twice). */
  posts: Map<string, number>;
  replayed: number;
}
const fresh = (): Tally => ({ received: 0, posts: new Map(), replayed: 0 });
let telegram = fresh();
let mastodon = fresh();
let lateness: number[] = [];
/** Per Telegram bot token: receipt times and sends in flight. */
let bots = new Map<string, { arrivals: number[]; inFlight: number; peak: number }>();

function botStats() {
  const out: Record<string, { sent: number; peakConcurrent: number; maxPerSecond: number }> = {};
  for (const [token, bot] of bots) {
    const times = [...bot.arrivals].sort((a, b) => a - b);
    let maxPerSecond = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 1000) j++;
      maxPerSecond = Math.max(maxPerSecond, i - j + 1);
    }
    out[token] = { sent: times.length, peakConcurrent: bot.peak, maxPerSecond };
  }
  return out;
}
const idempotent = new Map<string, { id: number; text: string }>();
let nextId = 1;

function created(tally: Tally, text: string, at: number): void {
  const count = tally.posts.get(text) ?? 0;
  tally.posts.set(text, count + 1);
  const due = /^due:(\d+):/.exec(text);
  if (count === 0 && due) lateness.push(at - Number(due[1]));
}

function summary(tally: Tally) {
  let duplicates = 0;
  for (const count of tally.posts.values()) duplicates += count - 1;
  return { received: tally.received, distinct: tally.posts.size, duplicates, replayed: tally.replayed };
}

const answerAfter = (fn: () => void) => {
  const wait = delayMs + (jitterMs ? Math.random() * jitterMs : 0);
  if (wait <= 0) fn();
  else setTimeout(fn, wait);
};

const server = createServer(async (req, res) => {
  const at = Date.now();
  const arrived = performance.now();
  const url = req.url ?? '/';
  if (req.method === 'GET' && url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        telegram: summary(telegram),
        mastodon: summary(mastodon),
        lateness,
        bots: botStats(),
      }),
    );
    return;
  }
  if (req.method === 'POST' && url === '/reset') {
    telegram = fresh();
    mastodon = fresh();
    lateness = [];
    bots = new Map();
    res.writeHead(204).end();
    return;
  }
  if (req.method === 'GET' && url.startsWith('/api/v2/instance')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        domain: 'bench.example',
        configuration: {
          statuses: { max_characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 },
        },
      }),
    );
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;

  if (req.method === 'POST' && url === '/api/v1/statuses') {
    mastodon.received++;
    const text = String(body.status ?? '');
    const key = `${req.headers.authorization}\n${req.headers['idempotency-key'] ?? crypto.randomUUID()}`;
    let status = idempotent.get(key);
    if (status) mastodon.replayed++;
    else {
      status = { id: nextId++, text };
      idempotent.set(key, status);
      created(mastodon, text, at);
    }
    const answer = { id: String(status.id), url: `https://bench.example/@bench/${status.id}`, content: text };
    answerAfter(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    return;
  }
  // Telegram Bot API: /bot<token>/<method>. Only sends are posts: the other calls (getChat from
  // an account check or the dispatcher's pre-flight, getMe) are answered and never counted, or
  // their empty texts would read as duplicates.
  const method = /^\/bot[^/]+\/(\w+)/.exec(url)?.[1] ?? '';
  if (!method.startsWith('send')) {
    const chat = {
      id: -1001,
      type: 'channel',
      title: 'Bench',
      username: String(body.chat_id ?? 'bench').replace(/^@/, ''),
    };
    answerAfter(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          result: method === 'getMe' ? { id: 1, is_bot: true, username: 'bench_bot' } : chat,
        }),
      );
    });
    return;
  }
  telegram.received++;
  const token = /^\/bot([^/]+)\//.exec(url)?.[1] ?? '?';
  let bot = bots.get(token);
  if (!bot) {
    bot = { arrivals: [], inFlight: 0, peak: 0 };
    bots.set(token, bot);
  }
  bot.arrivals.push(arrived);
  bot.peak = Math.max(bot.peak, ++bot.inFlight);
  const sending = bot;
  res.on('finish', () => sending.inFlight--);
  const text = String(body.text ?? '');
  created(telegram, text, at);
  const result = {
    message_id: nextId++,
    date: Math.floor(at / 1000),
    chat: {
      id: -1001,
      type: 'channel',
      title: 'Bench',
      username: String(body.chat_id ?? 'bench').replace(/^@/, ''),
    },
    text,
  };
  answerAfter(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, result }));
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
