import {
  createPresignedUpload,
  LocalStorage,
  type MediaFile,
  type MediaObject,
  mediaFileFromStorage,
  type PresignRequest,
  type PresignResponse,
  ProblemError,
  problem,
  receiveMultipartUpload,
  receiveSignedUpload,
  requestFromWeb,
  type Storage,
  StorageError,
  storageErrorProblem,
} from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { StoredMedia } from '#server/db/schema.ts';
import { completePresignedUpload, type RecordedUpload, recordUpload, streamingSha256 } from './record.ts';
import { insertMedia, type MediaRow, mediaByKey, ownedMedia } from './repository.ts';
import { toMediaObject } from './view.ts';

export { ownedMedia, toMediaObject };

/**
 * A StorageError as its problem answer (413, 415, 400 ...; docs/storage.md). A store that is down
 * answers 503 without its cause, which is logged here for the operator.
 */
export function storageProblem(ctx: AppContext, error: unknown): ProblemError {
  if (!(error instanceof StorageError)) throw error;
  if (error.code === 'unavailable') ctx.logger.error({ err: error }, 'media storage failed');
  const { problem, headers } = storageErrorProblem(error);
  return new ProblemError(problem, headers);
}

/** Records a presign's reserved key: the library lists it at once, its digest comes with its bytes. */
async function reserveMedia(ctx: AppContext, workspaceId: string, object: MediaObject): Promise<MediaObject> {
  const row = await insertMedia(ctx, workspaceId, object);
  if (!row) throw new Error('Could not reserve the media key');
  return toMediaObject(ctx, row);
}

/**
 * `multipart/form-data` with one file in field `file`, through the SDK's one multipart parser:
 * streamed straight into storage, never held in memory.
 */
export async function uploadFromRequest(
  ctx: AppContext,
  workspaceId: string,
  request: Request,
): Promise<RecordedUpload> {
  let stored: MediaObject;
  const hash = streamingSha256();
  try {
    stored = await receiveMultipartUpload({
      storage: ctx.storage,
      request: requestFromWeb(request),
      maxBytes: ctx.config.maxUploadBytes,
      onChunk: hash.onChunk,
    });
  } catch (error) {
    throw error instanceof StorageError ? storageProblem(ctx, error) : error;
  }
  return recordUpload(ctx, workspaceId, stored, hash.digest());
}

export async function presignUpload(
  ctx: AppContext,
  workspaceId: string,
  request: PresignRequest,
): Promise<PresignResponse> {
  let presigned: PresignResponse;
  try {
    presigned = await createPresignedUpload({
      storage: ctx.storage,
      request,
      maxBytes: ctx.config.maxUploadBytes,
    });
  } catch (error) {
    throw storageProblem(ctx, error);
  }
  // The key is reserved for this user now; it resolves once the PUT has stored the bytes.
  return { ...presigned, media: await reserveMedia(ctx, workspaceId, presigned.media) };
}

/** `PUT /media/:key` of a self-signed upload URL (local storage only). */
export async function receiveUpload(ctx: AppContext, key: string, request: Request): Promise<MediaObject> {
  if (!(ctx.storage instanceof LocalStorage))
    throw new ProblemError(problem('not_found', 'No such upload URL'));
  const row = await mediaByKey(ctx, key);
  if (!row) throw new ProblemError(problem('not_found', 'No such upload URL'));
  const body = requestFromWeb(request);
  const hash = streamingSha256();
  try {
    await receiveSignedUpload({
      storage: ctx.storage,
      key,
      query: new URL(request.url).searchParams,
      body,
      contentType: request.headers.get('content-type') ?? undefined,
      contentLength: request.headers.get('content-length') ?? undefined,
      onChunk: hash.onChunk,
    });
  } catch (error) {
    throw storageProblem(ctx, error);
  } finally {
    body.destroy();
  }
  await completePresignedUpload(ctx, row, hash.digest());
  return toMediaObject(ctx, row);
}

export function toStoredMedia(ctx: AppContext, row: MediaRow): StoredMedia {
  return toMediaObject(ctx, row);
}

/**
 * The storage as one user sees it: another user's keys do not exist. Handing this to the
 * PostingService makes a foreign key fail validation as `media_not_found`.
 */
export function userStorage(ctx: AppContext, workspaceId: string): Storage {
  const base = ctx.storage;
  const owns = async (key: string) => (await ownedMedia(ctx, workspaceId, [key])).has(key);
  return new Proxy(base, {
    get(target, property, receiver) {
      if (property === 'head') {
        return async (key: string) => ((await owns(key)) ? target.head(key) : null);
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Resolves one of this user's own media files by its public URL (YouTube thumbnails). */
export function ownMediaResolver(ctx: AppContext, workspaceId: string) {
  return async (url: string): Promise<MediaFile | null> => {
    const prefix = ctx.storage.publicUrl('');
    if (!url.startsWith(prefix)) return null;
    const key = url.slice(prefix.length);
    const row = (await ownedMedia(ctx, workspaceId, [key])).get(key);
    if (!row) return null;
    const stored = await ctx.storage.head(key);
    if (!stored) return null;
    return mediaFileFromStorage(ctx.storage, {
      key,
      filename: row.filename,
      contentType: stored.contentType,
      size: stored.size,
    });
  };
}
