import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { responseOf } from './incoming-response.ts';

/**
 * `fetch` for hosts the operator configured, over keep-alive `node:http`/`node:https` agents.
 *
 * Why not global fetch: undici's fetch costs about a fifth of the dispatcher's CPU per post
 * (request and response objects, web streams for both bodies, a separate write for headers and
 * body; bench/profiles/dispatch-before.txt). Here a simple request body (none, string, bytes,
 * URLSearchParams) goes out with its headers in one write, and a small reply that declares its
 * length (nearly every API answer) is read into one buffer before the Response is made, so no
 * stream is built for it. What it does not take on goes to global fetch unchanged: other bodies
 * (FormData, Blob, streams), other schemes, undici's own options (`dispatcher`), an environment
 * proxy (`NODE_USE_ENV_PROXY`), and a global fetch someone replaced (tests, instrumentation).
 *
 * What callers see is fetch's: a real Response with status, headers, `url` and `redirected`;
 * redirects followed as fetch follows them (method and body rules, credentials dropped across
 * origins, 20 hops), `redirect: 'manual' | 'error'`; gzip, deflate and br replies decoded; a
 * caller's signal rejects with its reason; transport failures reject with
 * `TypeError('fetch failed', { cause })`.
 */

const nativeFetch = globalThis.fetch;

/** A reply declaring at most this many bytes is read whole before the Response is handed back. */
const bufferedReplyBytes = 64 * 1024;
const maxRedirects = 20;

/**
 * As Node's global agent: an idle connection is let go after 5 s, or a second before the time a
 * server announces (`Keep-Alive: timeout=N`; Node heeds it only under an agent timeout), so a
 * request is not sent on a connection the server is closing (ECONNRESET). Requests in flight are
 * not timed by it.
 */
const idleMs = 5_000;
const agents = {
  'http:': new HttpAgent({ keepAlive: true, timeout: idleMs }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: idleMs }),
} as const;

interface Outgoing {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** Text goes as text: Node writes it in the same write as the headers (bytes take a second buffer). */
  body: string | Buffer | undefined;
}

export async function keepAliveFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const outgoing = leanRequest(input, init);
  if (!outgoing) return fetch(input, init);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  for (let hop = 0; ; hop++) {
    const incoming = await send(outgoing, signal);
    const status = incoming.statusCode ?? 0;
    const location = incoming.headers.location;
    if (
      status >= 300 &&
      status < 400 &&
      status !== 304 &&
      location !== undefined &&
      init.redirect !== 'manual'
    ) {
      incoming.resume();
      outgoing.url = nextHop(outgoing, status, location, init.redirect, hop);
      continue;
    }
    return toResponse(incoming, outgoing, hop > 0, signal);
  }
}

/** The request as this transport sends it, or undefined when global fetch should send it. */
function leanRequest(input: string | URL, init: RequestInit): Outgoing | undefined {
  if (globalThis.fetch !== nativeFetch || process.env.NODE_USE_ENV_PROXY) return undefined;
  if ('dispatcher' in init || (typeof input !== 'string' && !(input instanceof URL))) return undefined;
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  const raw = init.body;
  let body: string | Buffer | undefined;
  let contentType: string | undefined;
  if (raw === undefined || raw === null) body = undefined;
  else if (typeof raw === 'string') {
    body = raw;
    contentType = 'text/plain;charset=UTF-8';
  } else if (raw instanceof URLSearchParams) {
    body = raw.toString();
    contentType = 'application/x-www-form-urlencoded;charset=UTF-8';
  } else if (ArrayBuffer.isView(raw)) body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  else if (raw instanceof ArrayBuffer) body = Buffer.from(raw);
  else return undefined;
  const method = normalizeMethod(init.method ?? 'GET');
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) return undefined; // fetch's own TypeError
  const headers = headersOf(init.headers);
  if (headers === undefined) return undefined;
  headers.accept ??= '*/*';
  headers['user-agent'] ??= 'node';
  if (contentType) headers['content-type'] ??= contentType;
  // As fetch: a length for every body, and 0 for a bodiless POST or PUT.
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  else if (method === 'POST' || method === 'PUT') headers['content-length'] = '0';
  return { url, method, headers, body };
}

/** fetch upper-cases these methods only; others go as written. */
function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'].includes(upper) ? upper : method;
}

/** Lower-cased names, repeated names joined as Headers joins them; undefined for what only fetch knows. */
function headersOf(init: HeadersInit | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const text = String(value).trim();
    out[key] = key in out ? `${out[key]}, ${text}` : text;
  };
  if (init === undefined) return out;
  if (init instanceof Headers)
    init.forEach((value, name) => {
      add(name, value);
    });
  else if (Array.isArray(init)) for (const [name, value] of init) add(name!, value!);
  else if (typeof init === 'object' && Object.getPrototypeOf(init) === Object.prototype)
    for (const name of Object.keys(init)) add(name, (init as Record<string, string>)[name]!);
  else return undefined;
  return out;
}

function send(outgoing: Outgoing, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  const { url, method, headers, body } = outgoing;
  const protocol = url.protocol as 'http:' | 'https:';
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      req = (protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method, headers, agent: agents[protocol], ...(signal ? { signal } : {}) },
        resolve,
      );
    } catch (error) {
      // Invalid header names or values: fetch refuses them before sending too.
      reject(new TypeError('fetch failed', { cause: error }));
      return;
    }
    req.on('error', (error) =>
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })),
    );
    req.end(body);
  });
}

/** Where a redirect leads, with the method, body and headers fetch would send there. */
function nextHop(
  outgoing: Outgoing,
  status: number,
  location: string,
  mode: RequestRedirect | undefined,
  hop: number,
): URL {
  const refuse = (reason: string) => new TypeError('fetch failed', { cause: new Error(reason) });
  if (mode === 'error') throw refuse('unexpected redirect');
  if (hop >= maxRedirects) throw refuse('redirect count exceeded');
  let next: URL;
  try {
    next = new URL(location, outgoing.url);
  } catch {
    throw refuse('invalid redirect location');
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:')
    throw refuse('URL scheme must be a HTTP(S) scheme');
  const { headers } = outgoing;
  if (
    ((status === 301 || status === 302) && outgoing.method === 'POST') ||
    (status === 303 && outgoing.method !== 'GET' && outgoing.method !== 'HEAD')
  ) {
    outgoing.method = 'GET';
    outgoing.body = undefined;
    for (const name of [
      'content-type',
      'content-length',
      'content-encoding',
      'content-language',
      'content-location',
    ])
      delete headers[name];
  }
  // Credentials never follow a redirect to another origin.
  if (next.origin !== outgoing.url.origin) {
    delete headers.authorization;
    delete headers['proxy-authorization'];
    delete headers.cookie;
  }
  return next;
}

async function toResponse(
  incoming: IncomingMessage,
  outgoing: Outgoing,
  redirected: boolean,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const status = incoming.statusCode ?? 502;
  const nullBody = outgoing.method === 'HEAD' || status === 204 || status === 205 || status === 304;
  let body: BodyInit | null;
  if (nullBody) {
    incoming.resume();
    body = null;
  } else body = (await bodyOf(incoming, signal)) as BodyInit;
  return responseOf(incoming, body, outgoing.url.href, redirected);
}

/**
 * The whole body when it is small (up to `bufferedReplyBytes`, declared or chunked), else a stream
 * beginning with what was read; encoded replies are streamed through their decoder, as fetch does.
 */
function bodyOf(
  incoming: IncomingMessage,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> | Promise<Buffer | ReadableStream<Uint8Array>> {
  const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder) {
    incoming.on('error', (error) => decoder.destroy(error));
    return Readable.toWeb(incoming.pipe(decoder)) as ReadableStream<Uint8Array>;
  }
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > bufferedReplyBytes)
    return Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
  return readSmall(incoming, signal);
}

function readSmall(
  incoming: IncomingMessage,
  signal: AbortSignal | undefined,
): Promise<Buffer | ReadableStream<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const detach = () => {
      settled = true;
      // The error and close listeners stay (they do nothing once settled): an error nobody
      // listens to would crash the process.
      incoming.off('data', onData).off('end', onEnd);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size <= bufferedReplyBytes) return;
      // Larger than a reply worth holding: a stream from here, starting with what was read.
      incoming.pause();
      detach();
      incoming.unshift(Buffer.concat(chunks, size));
      resolve(Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
    };
    const onEnd = () => {
      detach();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: unknown) => {
      if (settled) return;
      detach();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    };
    // Closed before its end: the connection dropped (or the signal aborted) mid-reply.
    const onClose = () => {
      if (!settled) onError(new Error('The reply was cut off'));
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
