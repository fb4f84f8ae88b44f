import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Api, contentType, readResponse, Unreachable, unexpectedAnswer } from './api.ts';
import { ImportReport, NoContent } from './responses.ts';
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
  const report = await api.request(
    'POST',
    `/api/v1/posts/import?dryRun=${options.dryRun}`,
    ImportReport,
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

/**
 * The export's bytes once its type and first bytes show it is one (a JSON array, the CSV header),
 * before anything is written: an error is a problem, anything else an unexpected answer.
 */
async function exportBody(response: Response, format: 'csv' | 'json'): Promise<Readable> {
  if (!response.ok) await readResponse(response, NoContent);
  const expected = format === 'csv' ? 'text/csv' : 'application/json';
  const type = contentType(response);
  if (type !== expected || !response.body)
    throw unexpectedAnswer(response, `${type ?? 'no content type'} instead of ${expected}`);
  const chunks = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)[
    Symbol.asyncIterator
  ]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  while (head.length < 3) {
    const next = await chunks.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  const start = head.toString('utf8').trimStart();
  if (!(format === 'csv' ? start.startsWith('id,') : start.startsWith('['))) {
    await chunks.return?.();
    throw unexpectedAnswer(response, `${expected} that is not a Postwave export`);
  }
  return Readable.from(
    (async function* () {
      yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    })(),
  );
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
    throw new Unreachable(api.server, error);
  }
  const body = await exportBody(response, options.format);
  const counter = new ByteCounter(options.progress);
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.add(chunk.length);
      callback(null, chunk);
    },
  });
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
