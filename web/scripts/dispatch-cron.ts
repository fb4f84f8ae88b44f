/**
 * A tiny cron for containers: POSTs the dispatch endpoint every DISPATCH_EVERY_SECONDS (default
 * 15). Runs never overlap; a failed call is logged and retried on the next tick. Stops on SIGTERM.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const url = process.env.DISPATCH_URL;
const secret = process.env.DISPATCH_SECRET;
const everyMs = Number(process.env.DISPATCH_EVERY_SECONDS ?? '15') * 1000;
if (!url || !secret || !(everyMs > 0)) {
  console.error('dispatch-cron: set DISPATCH_URL, DISPATCH_SECRET and a positive DISPATCH_EVERY_SECONDS');
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    stopping = true;
  });
}

while (!stopping) {
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      signal: AbortSignal.timeout(120_000),
    });
    const body = await response.text();
    if (!response.ok) console.error(`dispatch-cron: ${response.status} ${body.slice(0, 200)}`);
    else if (!body.includes('"claimed":0')) console.log(`dispatch-cron: ${body}`);
  } catch (error) {
    console.error(`dispatch-cron: ${(error as Error).message}`);
  }
  const wait = Math.max(0, everyMs - (Date.now() - started));
  const deadline = Date.now() + wait;
  while (!stopping && Date.now() < deadline) await sleep(Math.min(500, wait));
}
