import { Readable } from 'node:stream';
import {
  type MediaObject,
  ProblemError,
  problem,
  StorageError,
  storeUpload,
  UnsafeUrlError,
} from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { recordMedia, storageProblem } from './service.ts';

/**
 * `upload_media_from_url`: fetches the URL through the SSRF guard and streams the body into
 * storage with the same size limit, type sniffing and record as `POST /api/v1/upload`.
 */
export async function uploadMediaFromUrl(
  ctx: AppContext,
  workspaceId: string,
  input: { url: string; filename?: string | undefined },
): Promise<MediaObject> {
  const refused = (code: string, message: string) =>
    new ProblemError(problem('validation_failed', message, { errors: [{ path: 'url', code, message }] }));
  let response: Response;
  try {
    response = await ctx.userUrlFetch(input.url, {
      headers: { accept: 'image/*, video/*, application/pdf' },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw refused(error.code, error.message);
    if ((error as Error)?.name === 'TimeoutError')
      throw refused('fetch_failed', 'The URL did not answer in time');
    throw error;
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
  try {
    stored = await storeUpload({
      storage: ctx.storage,
      body,
      filename,
      maxBytes: ctx.config.maxUploadBytes,
    });
  } catch (error) {
    if (error instanceof StorageError) throw storageProblem(error);
    throw error;
  } finally {
    body.destroy();
  }
  return recordMedia(ctx, workspaceId, stored);
}

/** `%ZZ` and other malformed escapes in a URL's last segment: keep the raw text rather than throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
