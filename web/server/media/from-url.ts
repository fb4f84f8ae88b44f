import { type MediaObject, ProblemError, problem, StorageError, storeUpload } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { allowLoopbackFetch } from '#server/oauth/clients.ts';
import { safeFetch, UnsafeUrlError } from '#server/oauth/safe-fetch.ts';
import { recordMedia, storageProblem } from './service.ts';

/**
 * `upload_media_from_url`: fetches the URL through the SSRF guard and streams the body into
 * storage with the same size limit, type sniffing and record as `POST /api/v1/upload`.
 */
export async function uploadMediaFromUrl(
  ctx: AppContext,
  userId: string,
  input: { url: string; filename?: string | undefined },
): Promise<MediaObject> {
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(input.url, {
      maxBytes: ctx.config.maxUploadBytes,
      allowLoopback: allowLoopbackFetch(ctx),
      accept: 'image/*, video/*, application/pdf',
    });
  } catch (error) {
    if (!(error instanceof UnsafeUrlError)) throw error;
    if (error.code === 'too_large') throw new ProblemError(problem('payload_too_large', error.message));
    throw new ProblemError(
      problem('validation_failed', error.message, {
        errors: [{ path: 'url', code: error.code, message: error.message }],
      }),
    );
  }
  const fromPath = decodeURIComponent(new URL(response.url).pathname.split('/').pop() ?? '');
  const filename = (input.filename ?? fromPath).replace(/[^\w.-]+/g, '_').slice(0, 200) || 'media';
  let stored: MediaObject;
  try {
    stored = await storeUpload({
      storage: ctx.storage,
      body: response.body,
      filename,
      maxBytes: ctx.config.maxUploadBytes,
    });
  } catch (error) {
    if (error instanceof StorageError) throw storageProblem(error);
    throw error;
  } finally {
    response.body.destroy();
  }
  return recordMedia(ctx, userId, stored);
}
