import type { Readable } from 'node:stream';
import { mediaSecurityHeaders } from '../http/security-headers.ts';
import { problem } from '../problems.ts';
import type { Problem } from '../schemas/problem.ts';
import { isValidMediaKey } from './keys.ts';
import type { ByteRange, Storage, StoredObject } from './types.ts';

export interface ServeMediaOptions {
  storage: Storage;
  /** The raw path segment; anything but a valid media key is a 404. */
  key: string;
  range?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  method?: 'GET' | 'HEAD';
}

export interface MediaResponse {
  status: 200 | 206 | 304 | 404 | 416;
  headers: Record<string, string>;
  /** Present for GET with 200 or 206. */
  body?: Readable;
}

/** Keys are never reused, so a response never changes: cache it for a year. */
const cacheControl = 'public, max-age=31536000, immutable';

/**
 * `GET|HEAD /media/:key` without a framework: conditional requests (ETag, Last-Modified), a single
 * byte range, and headers that stop browsers from reinterpreting user uploads. Every storage is
 * streamed through (S3 too), so ranges, ETags and 404s behave the same everywhere and private
 * buckets work.
 */
export async function serveMedia(options: ServeMediaOptions): Promise<MediaResponse> {
  const { storage, key } = options;
  if (!isValidMediaKey(key)) return notFound();
  const object = await storage.head(key);
  if (!object) return notFound();

  const etag = `"${object.etag}"`;
  const common: Record<string, string> = {
    ETag: etag,
    'Last-Modified': object.lastModified.toUTCString(),
    'Cache-Control': cacheControl,
    'Accept-Ranges': 'bytes',
    ...mediaSecurityHeaders(object.contentType),
  };
  if (notModified(object, etag, options)) return { status: 304, headers: common };

  const headers = { ...common, 'Content-Type': object.contentType };
  const range = parseRange(options.range, object.size);
  if (range === 'unsatisfiable') {
    return { status: 416, headers: { ...common, 'Content-Range': `bytes */${object.size}` } };
  }
  const withBody = options.method !== 'HEAD';
  if (range) {
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Length': String(range.end - range.start + 1),
        'Content-Range': `bytes ${range.start}-${range.end}/${object.size}`,
      },
      ...(withBody ? { body: await storage.read(key, range) } : {}),
    };
  }
  return {
    status: 200,
    headers: { ...headers, 'Content-Length': String(object.size) },
    ...(withBody ? { body: await storage.read(key) } : {}),
  };
}

/** The body of a 416 (section B: every error is a problem); `Content-Range` gives the size. */
export function unsatisfiableRange(): Problem {
  return problem('range_not_satisfiable', 'The requested range is outside the file');
}

function notFound(): MediaResponse {
  return { status: 404, headers: mediaSecurityHeaders(undefined) };
}

/** RFC 9110 §13.1: If-None-Match (weak comparison) wins; If-Modified-Since only without it. */
function notModified(object: StoredObject, etag: string, options: ServeMediaOptions): boolean {
  if (options.ifNoneMatch !== undefined) {
    const tags = options.ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  if (options.ifModifiedSince !== undefined) {
    const since = Date.parse(options.ifModifiedSince);
    if (Number.isNaN(since)) return false;
    return Math.floor(object.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * One `bytes=` range as inclusive offsets. A malformed header or several ranges are ignored (the
 * whole file is served, as RFC 9110 allows); a well-formed range outside the file is unsatisfiable.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
