/**
 * POST /api/v1/validation requests per second, against a bare Express JSON endpoint in the same
 * run (target: at least 0.7 of bare).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { loadConfig } from '../selfhosted/src/config.ts';
import { createLogger } from '../selfhosted/src/logging.ts';
import { startServer } from '../selfhosted/src/server.ts';
import { createServices } from '../selfhosted/src/services.ts';
import { runLoad } from './load.ts';

const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);
const connections = 32;
const apiKey = 'bench-key-0123456789abcdef0123456789abcdef';
const body = JSON.stringify({
  message: 'Benchmarking the validation endpoint with a realistic message ✨ https://example.com',
  accountIds: ['tg1', 'tg2'],
});

const dir = await mkdtemp(join(tmpdir(), 'postwave-bench-'));
const accountsFile = join(dir, 'accounts.json');
await writeFile(
  accountsFile,
  JSON.stringify({
    accounts: ['tg1', 'tg2'].map((id) => ({
      id,
      platform: 'telegram',
      platformAccountId: '@chan',
      credentials: { botToken: '123:abc' },
    })),
  }),
);

const bare = express();
bare.use(express.json());
// Answers the same shape and size as the real endpoint (one result per account id), so both
// servers parse and send the same number of bytes.
bare.post('/api/v1/validation', (req, res) => {
  const ids: string[] = Array.isArray(req.body.accountIds) ? req.body.accountIds : [];
  res.json({
    valid: true,
    results: ids.map((accountId) => ({
      accountId,
      platform: 'telegram',
      valid: true,
      errors: [],
      warnings: [],
    })),
  });
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((r) => bareServer.once('listening', r));
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/v1/validation`;

const config = loadConfig({
  SERVICE_API_KEY: apiKey,
  SERVICE_ACCOUNTS_FILE: accountsFile,
  SERVICE_STORAGE_DIR: join(dir, 'media'),
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
});
const services = createServices(config, createLogger(config.logLevel));
const running = await startServer(config, services);
const ourUrl = `${running.url}/api/v1/validation`;

const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
const load = (url: string) => runLoad({ url, method: 'POST', headers, body, connections, durationMs });
await load(bareUrl); // warm-up both
await load(ourUrl);
// Alternating rounds and medians, because this machine's other load drifts during a run.
const rounds = 3;
const bareRates: number[] = [];
const ourRates: number[] = [];
const statuses: Record<string, number>[] = [];
for (let i = 0; i < rounds; i++) {
  bareRates.push((await load(bareUrl)).perSecond);
  const ours = await load(ourUrl);
  ourRates.push(ours.perSecond);
  statuses.push(ours.statuses);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratio = median(ourRates) / median(bareRates);
console.log(`bare express JSON endpoint : ${median(bareRates).toFixed(0)} req/s (median of ${rounds})`);
console.log(
  `POST /api/v1/validation    : ${median(ourRates).toFixed(0)} req/s (median of ${rounds})`,
  statuses[0],
);
const bareSample = await (await fetch(bareUrl, { method: 'POST', headers, body })).text();
const ourSample = await (await fetch(ourUrl, { method: 'POST', headers, body })).text();
console.log(`response bodies: bare ${bareSample.length} bytes, ours ${ourSample.length} bytes`);
console.log(`ratio ${ratio.toFixed(2)} (target >= 0.70) ${ratio >= 0.7 ? 'OK' : 'MISSED'}`);

bareServer.close();
await running.close();
await rm(dir, { recursive: true, force: true });
