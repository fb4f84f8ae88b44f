import { createReadStream, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { PresignRequest } from '@postwave/shared';
import { type Api, ApiError, networkReason, readResponse, UnexpectedAnswer } from './api.ts';
import { AnyAnswer, type Media, Presign, Upload } from './responses.ts';

const typesByExtension: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.m4v': 'video/x-m4v',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

export function contentTypeFor(path: string): string | undefined {
  return typesByExtension[extname(path).toLowerCase()];
}

/** Draws `[#####.....]  42%  1.2 MB / 2.9 MB  photo.jpg` on one terminal line. */
export class ProgressBar {
  private readonly out: NodeJS.WriteStream | undefined;
  private readonly total: number;
  private readonly label: string;
  private lastDraw = 0;
  constructor(out: NodeJS.WriteStream | undefined, total: number, label: string) {
    this.out = out?.isTTY ? out : undefined;
    this.total = total;
    this.label = label;
  }
  update(done: number, force = false): void {
    if (!this.out) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 80) return;
    this.lastDraw = now;
    this.out.write(`\r${renderBar(done, this.total, this.label)}`);
  }
  finish(): void {
    if (!this.out) return;
    this.update(this.total, true);
    this.out.write('\n');
  }
}

export function renderBar(done: number, total: number, label: string, width = 24): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * width);
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}  ${formatBytes(done)} / ${formatBytes(total)}  ${label}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function countingStream(path: string, bar: ProgressBar): ReadableStream<Uint8Array> {
  let sent = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      bar.update(sent);
      callback(null, chunk);
    },
  });
  return Readable.toWeb(createReadStream(path).pipe(counter)) as unknown as ReadableStream<Uint8Array>;
}

/** Presign answers that mean the server has no direct uploads at all (an older or minimal server). */
const presignUnavailable = [404, 405, 501];

/**
 * Uploads one file: presign, then PUT the exact bytes to the returned URL (storage or the
 * Scheduler itself). Only a server without a presign endpoint, or a file whose type cannot be
 * declared from its name (the server sniffs it instead), goes through POST /api/v1/upload. A
 * refused presign or PUT is an error, never a silent second upload.
 */
export async function uploadFile(
  api: Api,
  path: string,
  progress: NodeJS.WriteStream | undefined,
): Promise<Media> {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new Error(`Cannot read ${path}: pass the path of an image, video or PDF file`);
  }
  const filename = basename(path);
  const contentType = contentTypeFor(path);
  if (!contentType || size === 0) return uploadMultipart(api, path, filename, size, contentType, progress);
  let presigned: Presign;
  try {
    const request: PresignRequest = { filename, contentType, size };
    presigned = await api.request('POST', '/api/v1/upload/presign', Presign, request);
  } catch (error) {
    if (error instanceof ApiError && presignUnavailable.includes(error.status))
      return uploadMultipart(api, path, filename, size, contentType, progress);
    throw error;
  }
  const bar = new ProgressBar(progress, size, filename);
  let response: Response;
  try {
    response = await fetch(presigned.uploadUrl, {
      method: presigned.method || 'PUT',
      headers: { ...presigned.headers, 'content-length': String(size) },
      body: countingStream(path, bar),
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    throw new Error(`Could not send ${filename} to the upload URL (${networkReason(error)})`);
  }
  if (!response.ok) {
    // Object storage answers its own errors (XML), not problems: then only the status is news.
    const error = await readResponse(response, AnyAnswer).catch((e: unknown) => e);
    throw error instanceof UnexpectedAnswer
      ? new ApiError(
          error.status,
          `http_${error.status}`,
          `The upload URL answered ${error.status}`,
          undefined,
        )
      : error;
  }
  bar.finish();
  return presigned.media;
}

async function uploadMultipart(
  api: Api,
  path: string,
  filename: string,
  size: number,
  contentType: string | undefined,
  progress: NodeJS.WriteStream | undefined,
): Promise<Media> {
  const boundary = `----postwave${crypto.randomUUID().replaceAll('-', '')}`;
  const safeName = filename.replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\n` +
      `Content-Type: ${contentType ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const bar = new ProgressBar(progress, size, filename);
  let sent = 0;
  const file = createReadStream(path);
  async function* parts() {
    yield head;
    for await (const chunk of file) {
      sent += (chunk as Buffer).length;
      bar.update(sent);
      yield chunk as Buffer;
    }
    yield tail;
  }
  const result = await api.request('POST', '/api/v1/upload', Upload, undefined, {
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
    },
    body: Readable.toWeb(Readable.from(parts())) as unknown as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  bar.finish();
  return result.media;
}
