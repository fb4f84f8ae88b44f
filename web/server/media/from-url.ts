import { Readable } from 'node:stream';
import {
  type Deadline,
  type MediaObject,
  ProblemError,
  problem,
  StorageError,
  storeUpload,
  UnsafeUrlError,
  withDeadline,
} from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { recordUpload, streamingSha256 } from './record.ts';
import { storageProblem } from './service.ts';

/** One download may take this long, headers and body, whoever asked for it. */
const downloadTimeoutMs = 30_000;

const refused = (code: string, message: string) =>
  new ProblemError(problem('validation_failed', message, { errors: [{ path: 'url', code, message }] }));

/** Why a download stopped: the caller's signal (an import's time budget), our own timeout, or the host. */
function downloadFailure(signal: AbortSignal | undefined, deadline: Deadline): ProblemError {
  if (signal?.aborted) {
    const reason = signal.reason;
    return reason instanceof ProblemError ? reason : refused('fetch_failed', 'The download was cancelled');
  }
  if (deadline.timedOut) return refused('timeout', 'The URL did not send the file in time');
  return refused('fetch_failed', 'The URL could not be read: the connection failed or closed early');
}

/**
 * `upload_media_from_url`: fetches the URL through the SSRF guard and streams the body into
 * storage with the same size limit, type sniffing and record as `POST /api/v1/upload`.
 * Whatever the host does (refuses, resets, sends less than it announced, trickles), the answer is
 * a 422 problem with a code (`fetch_failed`, `timeout`, …), never a 500; `signal` (an import's
 * time budget) aborts it with the signal's reason when that is a ProblemError.
 */
export async function uploadMediaFromUrl(
  ctx: AppContext,
  workspaceId: string,
  input: { url: string; filename?: string | undefined },
  signal?: AbortSignal,
): Promise<MediaObject> {
  const deadline = withDeadline(signal, downloadTimeoutMs);
  try {
    return await download(ctx, workspaceId, input, deadline, signal);
  } finally {
    deadline.dispose();
  }
}

async function download(
  ctx: AppContext,
  workspaceId: string,
  input: { url: string; filename?: string | undefined },
  deadline: Deadline,
  signal: AbortSignal | undefined,
): Promise<MediaObject> {
  let response: Response;
  try {
    response = await ctx.userUrlFetch(input.url, {
      headers: { accept: 'image/*, video/*, application/pdf' },
      signal: deadline.signal,
    });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw refused(error.code, error.message);
    throw downloadFailure(signal, deadline);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw refused('fetch_failed', `The URL answered ${response.status}`);
  }
  const length = response.headers.get('content-length');
  if (length !== null && /^\d+$/.test(length) && Number(length) > ctx.config.maxUploadBytes) {
    await response.body.cancel().catch(() => {});
    throw new ProblemError(
      problem('payload_too_large', `The file is larger than the limit of ${ctx.config.maxUploadBytes} bytes`),
    );
  }
  const fromPath = safeDecode(new URL(response.url).pathname.split('/').pop() ?? '');
  const filename = (input.filename ?? fromPath).replace(/[^\w.-]+/g, '_').slice(0, 200) || 'media';
  let stored: MediaObject;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  // A body that breaks (reset, fewer bytes than content-length, abort) is the host's fault;
  // anything else storage throws is ours and stays a 500.
  let bodyFailed = false;
  body.once('error', () => {
    bodyFailed = true;
  });
  const hash = streamingSha256();
  try {
    stored = await storeUpload({
      storage: ctx.storage,
      body,
      filename,
      maxBytes: ctx.config.maxUploadBytes,
      onChunk: hash.onChunk,
    });
  } catch (error) {
    // The file's own faults first (too large, not media): they hold whatever the connection did.
    if (error instanceof StorageError && error.code !== 'unavailable') throw storageProblem(ctx, error);
    if (bodyFailed || deadline.signal.aborted) throw downloadFailure(signal, deadline);
    if (error instanceof StorageError) throw storageProblem(ctx, error);
    throw error;
  } finally {
    body.destroy();
  }
  // Bytes the workspace already has answer its existing media (the library keeps one copy).
  return (await recordUpload(ctx, workspaceId, stored, hash.digest())).media;
}

/** `%ZZ` and other malformed escapes in a URL's last segment: keep the raw text rather than throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
