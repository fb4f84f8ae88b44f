/**
 * One server of `bench/selfhosted-publish.bench.ts`, in its own process so that each runs on its
 * own event loop and the code of another commit can be loaded: argv[2] is `bare` (a bare Express
 * handler doing the same sends) or the root of a checkout whose self-hosted server to start.
 * Env: BENCH_TELEGRAM_URL, BENCH_ACCOUNTS_FILE, BENCH_API_KEY, BENCH_STORAGE_DIR. Prints its URL.
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const target = process.argv[2]!;
// SIGUSR2 opens the measured window (after the warm-up) and SIGTERM closes it: the CPU time this
// process used in it goes to BENCH_CPU_OUT, and with BENCH_PROFILE_OUT a CPU profile of it
// (bench/support/profile-publish.ts).
const profileOut = process.env.BENCH_PROFILE_OUT;
let session: import('node:inspector/promises').Session | undefined;
let cpuAtStart: NodeJS.CpuUsage | undefined;
process.on('SIGUSR2', async () => {
  cpuAtStart = process.cpuUsage();
  if (!profileOut) return;
  const { Session } = await import('node:inspector/promises');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
});
process.once('SIGTERM', async () => {
  const { writeFileSync } = await import('node:fs');
  if (cpuAtStart && process.env.BENCH_CPU_OUT) {
    const used = process.cpuUsage(cpuAtStart);
    writeFileSync(process.env.BENCH_CPU_OUT, String(used.user + used.system));
  }
  if (session && profileOut) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileOut, JSON.stringify(profile));
  }
  process.exit(0);
});

const telegramUrl = process.env.BENCH_TELEGRAM_URL!;
const apiKey = process.env.BENCH_API_KEY!;

if (target === 'bare') {
  const { default: express } = await import('express');
  const { readFileSync } = await import('node:fs');
  const accounts = new Map<string, { platformAccountId: string; credentials: { botToken: string } }>(
    JSON.parse(readFileSync(process.env.BENCH_ACCOUNTS_FILE!, 'utf8')).accounts.map(
      (a: { id: string; platformAccountId: string; credentials: { botToken: string } }) => [a.id, a],
    ),
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const api = new URL(telegramUrl);
  /** One sendMessage over a keep-alive agent, the reply read and parsed as the SDK does. */
  const send = (token: string, chat: string, text: string) =>
    new Promise<{ message_id: number }>((resolve, reject) => {
      const body = JSON.stringify({ chat_id: chat, text });
      const req = request(
        {
          agent,
          host: api.hostname,
          port: api.port,
          method: 'POST',
          path: `/bot${token}/sendMessage`,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).result));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const app = express();
  app.use(express.json());
  app.post('/api/v1/posts', async (req, res) => {
    if (req.get('x-api-key') !== apiKey) return void res.status(401).end();
    const { message, accountIds } = req.body as { message: string; accountIds: string[] };
    const results = await Promise.all(
      accountIds.map(async (accountId) => {
        const account = accounts.get(accountId)!;
        const sent = await send(account.credentials.botToken, account.platformAccountId, message);
        return {
          accountId,
          platform: 'telegram',
          status: 'posted',
          platformPostId: String(sent.message_id),
          url: `https://t.me/${account.platformAccountId.slice(1)}/${sent.message_id}`,
        };
      }),
    );
    res.json({ id: crypto.randomUUID(), status: 'posted', results });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
} else {
  const load = (path: string) => import(pathToFileURL(join(target, path)).href);
  const { loadConfig } = await load('selfhosted/src/config.ts');
  const { createLogger } = await load('selfhosted/src/logging.ts');
  const { startServer } = await load('selfhosted/src/server.ts');
  const { createServices } = await load('selfhosted/src/services.ts');
  const config = loadConfig({
    SERVICE_API_KEY: apiKey,
    SERVICE_ACCOUNTS_FILE: process.env.BENCH_ACCOUNTS_FILE,
    SERVICE_STORAGE_DIR: process.env.BENCH_STORAGE_DIR,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TELEGRAM_API_URL: telegramUrl,
    // Telegram pacing off: the bench measures the server's own cost per request.
    PUBLISH_RATE_TELEGRAM_BOT: 'off',
    PUBLISH_RATE_TELEGRAM_CHAT: 'off',
    // Experiments (e.g. {"PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM":"100"}), for both servers alike.
    ...JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}'),
  });
  const services = createServices(config, createLogger(config.logLevel));
  const running = await startServer(config, services);
  console.log(running.url);
}
