import { connect, type Socket } from 'node:net';
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
  /** Latency percentiles of the completed requests, in ms (write of the request to its last byte). */
  p50Ms: number;
  p99Ms: number;
}

/**
 * Drives `url` with keep-alive connections from a worker thread, so the client does not share the
 * server's event loop. The client writes one prepared request per connection at a time and reads
 * just enough of each response (status, Content-Length or chunked end) to know it is complete:
 * on a 2-core machine a full HTTP client costs about as much CPU per request as the server under
 * test, and would flatten the difference between the servers being compared.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const headerEnd = Buffer.from('\r\n\r\n');
const chunkedEnd = Buffer.from('\r\n0\r\n\r\n');

/** Length of the complete response at the start of `data`, or 0 when more bytes are needed. */
function completeResponse(data: Buffer): { length: number; status: number } | undefined {
  const end = data.indexOf(headerEnd);
  if (end < 0) return undefined;
  const head = data.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (lengthMatch) {
    const total = end + 4 + Number(lengthMatch[1]);
    return data.length >= total ? { length: total, status } : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const last = data.indexOf(chunkedEnd, end + 2);
    return last < 0 ? undefined : { length: last + chunkedEnd.length, status };
  }
  return { length: end + 4, status };
}

async function generate(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const body = Buffer.from(options.body);
  const head = [
    `${options.method} ${url.pathname}${url.search} HTTP/1.1`,
    `host: ${url.host}`,
    'connection: keep-alive',
    ...Object.entries({ ...options.headers, 'content-length': String(body.length) }).map(
      ([name, value]) => `${name}: ${value}`,
    ),
    '',
    '',
  ].join('\r\n');
  const request = Buffer.concat([Buffer.from(head, 'latin1'), body]);
  const statuses: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + options.durationMs;

  const drive = () =>
    new Promise<void>((resolve) => {
      let socket: Socket;
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const next = () => {
        sentAt = performance.now();
        if (sentAt >= end) {
          socket.destroy();
          resolve();
          return;
        }
        socket.write(request);
      };
      const open = () => {
        socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true }, next);
        socket.on('data', (chunk: Buffer) => {
          pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
          const response = completeResponse(pending);
          if (!response) return;
          pending = pending.subarray(response.length);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          requests++;
          latencies.push(performance.now() - sentAt);
          next();
        });
        socket.on('error', () => {
          errors++;
        });
        socket.on('close', () => {
          if (performance.now() >= end) return resolve();
          pending = Buffer.alloc(0);
          open();
        });
      };
      open();
    });

  await Promise.all(Array.from({ length: options.connections }, drive));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests, perSecond: requests / seconds, errors, statuses, p50Ms: at(0.5), p99Ms: at(0.99) };
}

if (!isMainThread && parentPort) {
  parentPort.postMessage(await generate(workerData as LoadOptions));
}
