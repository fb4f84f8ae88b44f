import { Agent, request } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export interface LoadOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationMs: number;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  errors: number;
  statuses: Record<string, number>;
}

/** Drives `url` with keep-alive connections from a worker thread, so the client does not share the server's event loop. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function generate(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.url);
  const body = Buffer.from(options.body);
  const headers = { ...options.headers, 'content-length': String(body.length) };
  const statuses: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + options.durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(url, { method: options.method, headers, agent }, (res) => {
        statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
        res.resume();
        res.on('end', () => {
          requests++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests, perSecond: requests / seconds, errors, statuses };
}

if (!isMainThread && parentPort) {
  parentPort.postMessage(await generate(workerData as LoadOptions));
}
