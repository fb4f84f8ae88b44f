/**
 * A 1 GiB multipart upload to POST /api/v1/upload: the server's RSS growth (target <= 100 MB) and
 * its throughput against a bare stream-to-disk Node server (target >= 0.6). Both servers run as
 * their own processes; RSS is sampled from /proc while the upload runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePng } from '@postwave/shared/testing';

const totalBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const apiKey = 'bench-key-0123456789abcdef0123456789abcdef';
const root = new URL('..', import.meta.url).pathname;
const dir = await mkdtemp(join(tmpdir(), 'postwave-upload-bench-'));

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function startProcess(
  args: string[],
  env: Record<string, string>,
  portOf: (line: string) => string | undefined,
) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const found = portOf(output);
      if (found) resolve(found);
    });
  });
  return { child, port: Number(port) };
}

/** Streams a multipart body of `totalBytes` (a PNG header plus padding) without holding it in memory. */
function upload(port: number, path: string, headers: Record<string, string>) {
  const boundary = '----postwavebench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const png = samplePng();
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  return new Promise<{ status: number; seconds: number; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + totalBytes + tail.length),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000, body }),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(png);
    let remaining = totalBytes - png.length;
    const pump = () => {
      while (remaining > 0) {
        const piece = remaining >= chunk.length ? chunk : chunk.subarray(0, remaining);
        remaining -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function measure(child: ChildProcess, run: () => ReturnType<typeof upload>) {
  const baseline = rssBytes(child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(child.pid!));
  }, 50);
  const result = await run();
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(child.pid!));
  return { ...result, growth: peak - baseline };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const bareServer = (fsync: boolean) =>
  startProcess(
    [join(root, 'bench/support/bare-upload-server.ts')],
    { BENCH_DIR: dir, BENCH_FSYNC: fsync ? '1' : '0' },
    (out) => /"port":(\d+)/.exec(out)?.[1],
  );
const bare = await bareServer(false);
const bareDurable = await bareServer(true);
const ours = await startProcess(
  [join(root, 'selfhosted/src/main.ts')],
  {
    SERVICE_API_KEY: apiKey,
    SERVICE_STORAGE_DIR: join(dir, 'media'),
    MAX_UPLOAD_BYTES: String(totalBytes + 1024),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  },
  (out) => /"port":(\d+)/.exec(out)?.[1],
);

try {
  const bareResult = await measure(bare.child, () => upload(bare.port, '/', {}));
  await rm(join(dir, 'upload-0'), { force: true });
  const durableResult = await measure(bareDurable.child, () => upload(bareDurable.port, '/', {}));
  await rm(join(dir, 'upload-0'), { force: true });
  const ourResult = await measure(ours.child, () =>
    upload(ours.port, '/api/v1/upload', { 'x-api-key': apiKey }),
  );
  if (ourResult.status !== 201) throw new Error(`upload answered ${ourResult.status}: ${ourResult.body}`);
  const bareRate = totalBytes / bareResult.seconds;
  const ourRate = totalBytes / ourResult.seconds;
  const ratio = ourRate / bareRate;
  const durableRate = totalBytes / durableResult.seconds;
  console.log(`upload of ${mb(totalBytes)} MiB`);
  console.log(`bare stream-to-disk server : ${mb(bareRate)} MiB/s, RSS growth ${mb(bareResult.growth)} MiB`);
  console.log(`bare, fsync before answering: ${mb(durableRate)} MiB/s (our storage fsyncs too)`);
  console.log(`POST /api/v1/upload        : ${mb(ourRate)} MiB/s, RSS growth ${mb(ourResult.growth)} MiB`);
  console.log(`throughput ratio ${ratio.toFixed(2)} (target >= 0.60) ${ratio >= 0.6 ? 'OK' : 'MISSED'}`);
  console.log(`throughput ratio against the fsyncing baseline ${(ourRate / durableRate).toFixed(2)}`);
  const growthOk = ourResult.growth <= 100 * 1024 * 1024;
  console.log(`RSS growth ${mb(ourResult.growth)} MiB (target <= 100 MB) ${growthOk ? 'OK' : 'MISSED'}`);
} finally {
  bare.child.kill();
  bareDurable.child.kill();
  ours.child.kill('SIGTERM');
  await new Promise((r) => ours.child.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}
