/**
 * Every reply body read from a platform or a user-chosen host goes through a byte cap, so a
 * hostile or broken server cannot grow the process by sending gigabytes: the stream is aborted
 * as soon as the cap is passed.
 */

export const defaultMaxReplyBytesFallback = 8 * 1024 * 1024;

let defaultLimit = defaultMaxReplyBytesFallback;

/** The cap applied when a caller names none (env `MAX_REPLY_BYTES`, set once at start). */
export function defaultMaxReplyBytes(): number {
  return defaultLimit;
}

/** Servers call this once at start from their validated configuration. */
export function setDefaultMaxReplyBytes(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new RangeError('MAX_REPLY_BYTES must be a positive integer');
  defaultLimit = bytes;
}

/** Parses `MAX_REPLY_BYTES`-style values; undefined or empty means the default. */
export function parseMaxReplyBytes(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return defaultMaxReplyBytesFallback;
  const parsed = Number(value.trim());
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new RangeError(`MAX_REPLY_BYTES must be a positive whole number of bytes, got "${value}"`);
  return parsed;
}

export class ReplyTooLargeError extends Error {
  override name = 'ReplyTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`The reply was larger than ${limit} bytes and was not read`);
    this.limit = limit;
  }
}

/**
 * Responses `capResponse` handed back as they are, with what to run once their body has been read
 * (`readBytesCapped` runs it).
 */
const settleWhenRead = new WeakMap<Response, () => void>();

/**
 * Replies whose whole body the transport read before making the `Response` (the keep-alive and
 * SSRF-safe fetches read small replies into one buffer): their size is known, so they need no
 * counting stream, and `readBytesCapped` hands the bytes back without reading them again through
 * the Response's web stream.
 */
const bufferedBodies = new WeakMap<Response, Uint8Array>();

/** Called by a transport for a reply it built from `bytes`, read in full. */
export function rememberBufferedBody(response: Response, bytes: Uint8Array): void {
  bufferedBodies.set(response, bytes);
}

/**
 * The body's size when the reply declares it and sends it as is (no content-encoding: a gzip body
 * inflates past its Content-Length). The HTTP client reads exactly that many bytes, no more.
 */
function declaredLength(response: Response): number | undefined {
  const declared = response.headers.get('content-length');
  if (declared === null || !/^\d+$/.test(declared)) return undefined;
  const encoding = response.headers.get('content-encoding');
  return encoding === null || encoding.trim().toLowerCase() === 'identity' ? Number(declared) : undefined;
}

/**
 * The same response with a body that errors (ReplyTooLargeError) once more than `limit` bytes
 * arrived, cancelling the underlying stream. A declared Content-Length over the cap fails at once.
 * `onSettled` runs once when the body has been read to its end, cancelled or cut off (at once when
 * there is no body), so a caller can let go of what only the reading needed (a deadline's timer).
 *
 * A reply that declares an unencoded Content-Length within the cap (nearly every platform reply)
 * cannot pass it, so it is handed back as it is: wrapping costs a TransformStream and a Response
 * per call, measured at about 150 µs of CPU, a third of a bare fetch (bench/selfhosted-publish);
 * other replies (chunked, compressed) are counted through one pulled stream.
 * Its `onSettled` runs when `readBytesCapped` (readJson, readTextCapped …) has read it; a caller
 * that reads it another way leaves the deadline to lapse on its own.
 */
export function capResponse(
  response: Response,
  limit = defaultMaxReplyBytes(),
  onSettled: () => void = () => {},
): Response {
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    response.body?.cancel().catch(() => {});
    throw new ReplyTooLargeError(limit);
  }
  // Checked before `body`: asking a buffered reply for its body would make the stream it spares.
  const buffered = bufferedBodies.get(response);
  if (buffered !== undefined) {
    if (buffered.byteLength > limit) {
      bufferedBodies.delete(response);
      throw new ReplyTooLargeError(limit);
    }
    settleWhenRead.set(response, onSettled);
    return response;
  }
  if (!response.body) {
    onSettled();
    return response;
  }
  const length = declaredLength(response);
  if (length !== undefined && length <= limit) {
    settleWhenRead.set(response, onSettled);
    return response;
  }
  // One pulled stream over the body's reader: lighter than pipeThrough(TransformStream), which
  // adds a writable side and a pipe loop to every reply.
  const reader = response.body.getReader();
  let seen = 0;
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    onSettled();
  };
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        settle();
        throw error;
      }
      if (chunk.done) {
        settle();
        controller.close();
        return;
      }
      seen += chunk.value.byteLength;
      if (seen <= limit) return controller.enqueue(chunk.value);
      settle();
      reader.cancel().catch(() => {});
      controller.error(new ReplyTooLargeError(limit));
    },
    cancel(reason) {
      settle();
      return reader.cancel(reason);
    },
  });
  const capped = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(capped, 'url', { value: response.url });
  Object.defineProperty(capped, 'redirected', { value: response.redirected });
  return capped;
}

/** Reads the whole body, at most `limit` bytes; past it the stream is cancelled and ReplyTooLargeError thrown. */
export async function readBytesCapped(
  response: Response,
  limit = defaultMaxReplyBytes(),
): Promise<Uint8Array> {
  const settle = settleWhenRead.get(response);
  settleWhenRead.delete(response);
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await response.body?.cancel().catch(() => {});
    settle?.();
    throw new ReplyTooLargeError(limit);
  }
  if (settle) {
    const buffered = bufferedBodies.get(response);
    if (buffered !== undefined && !response.bodyUsed) {
      // Read in full by the transport and within the cap (capResponse): no stream to go through.
      bufferedBodies.delete(response);
      settle();
      return buffered;
    }
    try {
      // Within the cap by its declared length (capResponse): one read, no chunk loop.
      return new Uint8Array(await response.arrayBuffer());
    } finally {
      settle();
    }
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        await reader.cancel().catch(() => {});
        throw new ReplyTooLargeError(limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    // A capped stream (capResponse) errors with the same error: keep it recognisable.
    if (error instanceof ReplyTooLargeError) throw error;
    if ((error as { cause?: unknown })?.cause instanceof ReplyTooLargeError)
      throw (error as { cause: Error }).cause;
    throw error;
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, length);
}

const utf8 = new TextDecoder();

export async function readTextCapped(response: Response, limit = defaultMaxReplyBytes()): Promise<string> {
  return utf8.decode(await readBytesCapped(response, limit));
}

/** Parses a JSON reply of at most `limit` bytes (8 MiB by default); throws SyntaxError on bad JSON. */
export async function readJsonCapped(response: Response, limit = defaultMaxReplyBytes()): Promise<unknown> {
  return JSON.parse(await readTextCapped(response, limit));
}
