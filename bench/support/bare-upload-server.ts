/**
 * The baseline for the upload benchmark: a bare Node server that streams the request body to disk
 * (and, with BENCH_FSYNC=1, flushes it to disk before answering, as durable storage must).
 */
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const directory = process.env.BENCH_DIR!;
const fsync = process.env.BENCH_FSYNC === '1';
let n = 0;
const server = createServer(async (req, res) => {
  const path = join(directory, `upload-${n++}`);
  await pipeline(req, createWriteStream(path));
  if (fsync) {
    const file = await open(path, 'r+');
    await file.sync();
    await file.close();
  }
  res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
});
server.requestTimeout = 0;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
