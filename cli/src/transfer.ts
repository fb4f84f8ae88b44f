import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ImportReport } from '@postwave/shared';
import { type Api, ApiError, readResponse } from './api.ts';
import { formatBytes, ProgressBar } from './upload.ts';

/** `.json` (or a body starting with `[`) is JSON; anything else is CSV. */
export function importContentType(path: string, text: string): 'text/csv' | 'application/json' {
  if (extname(path).toLowerCase() === '.json') return 'application/json';
  if (extname(path).toLowerCase() === '.csv') return 'text/csv';
  return text.trimStart().startsWith('[') ? 'application/json' : 'text/csv';
}

/** Sends the file with an upload bar on `progress` (a terminal only); answers the row report. */
export async function importFile(
  api: Api,
  path: string,
  options: { dryRun: boolean; progress: NodeJS.WriteStream | undefined },
): Promise<ImportReport> {
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    bytes = readFileSync(path);
  } catch {
    throw new Error(`Cannot read ${path}: pass a CSV or JSON file`);
  }
  const bar = new ProgressBar(options.progress, bytes.length, basename(path));
  const chunkSize = 64 * 1024;
  async function* chunks() {
    for (let sent = 0; sent < bytes.length; sent += chunkSize) {
      const chunk = bytes.subarray(sent, sent + chunkSize);
      bar.update(sent + chunk.length);
      yield chunk;
    }
  }
  const report = await api.request<ImportReport>(
    'POST',
    `/api/v1/posts/import?dryRun=${options.dryRun}`,
    undefined,
    {
      headers: {
        'content-type': importContentType(path, bytes.subarray(0, 64).toString('utf8')),
        'content-length': String(bytes.length),
      },
      body: Readable.toWeb(Readable.from(chunks())) as unknown as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit,
  );
  bar.finish();
  return report;
}

export interface ExportOptions {
  format: 'csv' | 'json';
  status?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export function exportPath(options: ExportOptions): string {
  const query = new URLSearchParams({ format: options.format });
  if (options.status) query.set('status', options.status);
  if (options.from) query.set('from', options.from);
  if (options.to) query.set('to', options.to);
  return `/api/v1/posts/export?${query}`;
}

/** Draws `Exporting  1.2 MB` while the export streams in (a terminal only; the total is unknown). */
class ByteCounter {
  private readonly out: NodeJS.WriteStream | undefined;
  private lastDraw = 0;
  received = 0;
  constructor(out: NodeJS.WriteStream | undefined) {
    this.out = out?.isTTY ? out : undefined;
  }
  add(n: number): void {
    this.received += n;
    if (!this.out || Date.now() - this.lastDraw < 80) return;
    this.lastDraw = Date.now();
    this.out.write(`\rExporting  ${formatBytes(this.received)}`);
  }
  finish(): void {
    this.out?.write(`\rExported   ${formatBytes(this.received)}\n`);
  }
}

/** Streams the export to `file` (or `write`, i.e. standard output), never holding it whole. */
export async function exportPosts(
  api: Api,
  options: ExportOptions & {
    file?: string | undefined;
    write: (text: string) => void;
    progress: NodeJS.WriteStream | undefined;
  },
): Promise<number> {
  let response: Response;
  try {
    response = await fetch(api.url(exportPath(options)), {
      headers: {
        ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
        accept: 'text/csv, application/json, application/problem+json',
      },
    });
  } catch (error) {
    throw new Error(`Could not reach ${api.server} (${(error as Error).cause ?? (error as Error).message}).`);
  }
  if (!response.ok || !response.body) {
    await readResponse(response);
    throw new ApiError(response.status, `http_${response.status}`, 'The export failed', undefined);
  }
  const counter = new ByteCounter(options.progress);
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.add(chunk.length);
      callback(null, chunk);
    },
  });
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  if (options.file) {
    await pipeline(body, counting, createWriteStream(options.file));
  } else {
    const decoder = new TextDecoder();
    for await (const chunk of body) {
      counter.add((chunk as Buffer).length);
      options.write(decoder.decode(chunk as Buffer, { stream: true }));
    }
    const rest = decoder.decode();
    if (rest) options.write(rest);
  }
  counter.finish();
  return counter.received;
}
