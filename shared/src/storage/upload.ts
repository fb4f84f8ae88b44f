import type { Readable } from 'node:stream';
import { isAcceptedContentType } from '../media/kinds.ts';
import type { MediaObject } from '../schemas/media.ts';
import type { PresignRequest, PresignResponse } from '../schemas/presign.ts';
import { filenameFromKey, newMediaKey } from './keys.ts';
import type { LocalStorage } from './local.ts';
import { peek } from './peek.ts';
import { verifyUploadGrant } from './signed-url.ts';
import { normalizeContentType, sniffBytes, sniffContentType } from './sniff.ts';
import { type Storage, StorageError, type StoredObject } from './types.ts';

/** Presigned upload URLs are valid this long (15 minutes, docs/storage.md). */
export const presignExpirySeconds = 900;

export interface StoreUploadOptions {
  storage: Storage;
  body: Readable;
  /** The client's file name; only used to make the key readable. */
  filename: string;
  /** The client's declared type; empty or application/octet-stream count as not declared. */
  declaredType?: string | undefined;
  maxBytes: number;
  /** Sees every stored byte in order (hashing while streaming); see `PutOptions.onChunk`. */
  onChunk?: ((chunk: Buffer) => void) | undefined;
}

/**
 * Streams an upload into storage under a new key. The type is sniffed from the first bytes before
 * anything is written; unsupported bytes, a disagreeing declared type or a body over `maxBytes`
 * throw a StorageError and leave nothing stored. On failure `body` is left unconsumed past the
 * failure point: the caller drains it or closes the connection.
 */
export async function storeUpload(options: StoreUploadOptions): Promise<MediaObject> {
  const { head, stream } = await peek(options.body, sniffBytes);
  const sniffed = await sniffContentType(head);
  if (!sniffed) {
    throw new StorageError('unsupported_type', 'The file is not an image, video or PDF type we can publish');
  }
  const declared = normalizeContentType(options.declaredType);
  if (declared && declared !== sniffed) {
    throw new StorageError(
      'type_mismatch',
      `The file was declared as ${declared} but its content is ${sniffed}`,
    );
  }
  const key = newMediaKey(options.filename, sniffed);
  const stored = await options.storage.put(key, stream, {
    contentType: sniffed,
    maxBytes: options.maxBytes,
    ...(options.onChunk ? { onChunk: options.onChunk } : {}),
  });
  return mediaObject(options.storage, stored);
}

export interface CreatePresignedUploadOptions {
  storage: Storage;
  request: PresignRequest;
  maxBytes: number;
  /** When the URL counts as signed; defaults to now. */
  now?: Date;
}

/**
 * A new key and an upload URL bound to it, the declared type and the exact size. Refuses up front
 * a size or type that could never be accepted.
 */
export async function createPresignedUpload(options: CreatePresignedUploadOptions): Promise<PresignResponse> {
  const { storage, request, maxBytes } = options;
  if (request.size > maxBytes) {
    throw new StorageError('too_large', `The file is larger than the limit of ${maxBytes} bytes`);
  }
  const contentType = normalizeContentType(request.contentType);
  if (!contentType || !isAcceptedContentType(contentType)) {
    throw new StorageError(
      'unsupported_type',
      `${request.contentType} is not an image, video or PDF type we can publish`,
    );
  }
  const key = newMediaKey(request.filename, contentType);
  const presigned = await storage.presignPut(key, {
    contentType,
    size: request.size,
    expiresInSeconds: presignExpirySeconds,
    ...(options.now ? { signedAt: options.now } : {}),
  });
  return {
    uploadUrl: presigned.url,
    method: 'PUT',
    headers: presigned.headers,
    expiresAt: presigned.expiresAt.toISOString(),
    media: {
      id: key,
      key,
      url: storage.publicUrl(key),
      filename: filenameFromKey(key),
      contentType,
      size: request.size,
      storage: storage.kind,
    },
  };
}

export interface ReceiveSignedUploadOptions {
  storage: LocalStorage;
  key: string;
  query: URLSearchParams;
  body: Readable;
  /** The request's Content-Type header. */
  contentType: string | undefined;
  /** The request's Content-Length header. */
  contentLength: string | undefined;
  now?: Date;
  /** Sees every stored byte in order (hashing while streaming). */
  onChunk?: ((chunk: Buffer) => void) | undefined;
}

/**
 * The PUT of a self-signed upload URL (local storage). Stores the body only when the signature
 * holds, the URL has not expired, the key is still free, the Content-Type is the signed one, the
 * bytes sniff as that type and exactly the signed number of bytes arrived. Otherwise it throws a
 * StorageError and nothing is stored.
 */
export async function receiveSignedUpload(options: ReceiveSignedUploadOptions): Promise<MediaObject> {
  const { storage, key } = options;
  const grant = verifyUploadGrant(storage.signingSecret, key, options.query, options.now);
  if (normalizeContentType(options.contentType) !== grant.contentType) {
    throw new StorageError(
      'type_mismatch',
      `The upload must be sent with Content-Type: ${grant.contentType}`,
    );
  }
  if (options.contentLength === undefined || options.contentLength.trim() !== String(grant.size)) {
    throw new StorageError(
      'length_mismatch',
      `The upload must be exactly ${grant.size} bytes (Content-Length)`,
    );
  }
  if (await storage.head(key)) {
    throw new StorageError('already_exists', 'This upload URL has already been used');
  }
  const { head, stream } = await peek(options.body, sniffBytes);
  const sniffed = await sniffContentType(head);
  if (sniffed !== grant.contentType) {
    throw new StorageError(
      'type_mismatch',
      `The upload was signed for ${grant.contentType} but its content is ${sniffed ?? 'not a supported type'}`,
    );
  }
  const stored = await storage.put(key, stream, {
    contentType: sniffed,
    maxBytes: grant.size,
    expectedSize: grant.size,
    ...(options.onChunk ? { onChunk: options.onChunk } : {}),
  });
  return mediaObject(storage, stored);
}

export function mediaObject(storage: Storage, stored: StoredObject): MediaObject {
  return {
    id: stored.key,
    key: stored.key,
    url: storage.publicUrl(stored.key),
    filename: filenameFromKey(stored.key),
    contentType: stored.contentType,
    size: stored.size,
    storage: storage.kind,
  };
}
