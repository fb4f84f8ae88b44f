import { createWriteStream, openAsBlob } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HeadObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { BlobCache } from './blob-cache.ts';
import { limitedCopy } from './byte-limit.ts';
import { assertValidMediaKey } from './keys.ts';
import { sniffBytes, sniffContentType } from './sniff.ts';
import {
  type ByteRange,
  type PresignedUpload,
  type PresignOptions,
  type PutOptions,
  type Storage,
  StorageError,
  type StoredObject,
} from './types.ts';

export interface S3StorageOptions {
  /** Custom endpoint for S3-compatible services (MinIO, R2, ...); AWS when absent. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Where the bucket's objects are publicly readable; media URLs are `${publicBaseUrl}/${key}`. */
  publicBaseUrl: string;
  /** How long a downloaded blob's temp file is kept after its last use (default 1 hour). */
  blobTtlMs?: number;
}

const sniffedTypeCacheSize = 10_000;
/** Never a media key (those never start with a dot), so it is never served or overwritten as one. */
const healthProbeKey = '.postwave-health-probe';

/** 8 MiB parts: big enough for few requests, small enough to keep a streamed put's memory low. */
const partSize = 8 * 1024 * 1024;

/**
 * Media in an S3-compatible bucket. Puts stream through lib-storage's Upload (multipart past one
 * part, aborted on failure so nothing is left); presigned PUTs bind Content-Type and Content-Length.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly #options: S3StorageOptions;
  #sdk: Promise<Sdk> | undefined;
  readonly #publicBaseUrl: string;
  readonly #blobs: BlobCache;
  readonly #types = new Map<string, string>();

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.#publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.#options = options;
    this.#blobs = new BlobCache(options.blobTtlMs ?? 60 * 60 * 1000, (key, path) =>
      this.#download(key, path),
    );
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    assertValidMediaKey(key);
    const { client, lib } = await this.#load();
    const limited = limitedCopy(body, {
      maxBytes: options.maxBytes,
      expectedSize: options.expectedSize,
      ...(options.onChunk ? { onChunk: options.onChunk } : {}),
    });
    const upload = new lib.Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: limited, ContentType: options.contentType },
      partSize,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // Prefer the stream's own reason (too large, length mismatch) over the upload's echo of it.
      throw limited.errored ?? asStorageError(error, 'Could not store the file');
    }
    const stored = await this.head(key);
    if (!stored) throw new StorageError('unavailable', 'The stored file could not be found after upload');
    return stored;
  }

  /**
   * The object's size and its type as sniffed from its bytes: a presigned PUT only proves the
   * client sent the signed Content-Type header, not that the bytes are of that type. Bytes of no
   * accepted type report `application/octet-stream`, which no platform accepts.
   */
  async head(key: string): Promise<StoredObject | null> {
    assertValidMediaKey(key);
    const { client, s3 } = await this.#load();
    let result: HeadObjectCommandOutput;
    try {
      result = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(s3, error)) return null;
      throw asStorageError(error, 'Could not look the file up');
    }
    const size = result.ContentLength ?? 0;
    const etag = (result.ETag ?? '').replaceAll('"', '');
    return {
      key,
      size,
      contentType: await this.#sniffedType(key, etag, size),
      lastModified: result.LastModified ?? new Date(0),
      etag,
    };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertValidMediaKey(key);
    const { client, s3 } = await this.#load();
    try {
      const result = await client.send(
        new s3.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return result.Body as Readable;
    } catch (error) {
      if (isNotFound(s3, error)) throw new StorageError('not_found', 'No media with this key');
      throw asStorageError(error, 'Could not read the file');
    }
  }

  /** Downloaded to a temp file and returned file-backed, so memory stays bounded for big videos. */
  async blob(key: string): Promise<Blob> {
    assertValidMediaKey(key);
    const object = await this.head(key);
    if (!object) throw new StorageError('not_found', 'No media with this key');
    const path = await this.#blobs.file(key, object.etag);
    return openAsBlob(path, { type: object.contentType });
  }

  async delete(key: string): Promise<void> {
    assertValidMediaKey(key);
    const { client, s3 } = await this.#load();
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(s3, error)) return;
      throw asStorageError(error, 'Could not delete the file');
    }
  }

  publicUrl(key: string): string {
    return `${this.#publicBaseUrl}/${encodeURIComponent(key)}`;
  }

  async presignPut(key: string, options: PresignOptions): Promise<PresignedUpload> {
    assertValidMediaKey(key);
    const signedAt = options.signedAt ?? new Date();
    const { client, s3, presigner } = await this.#load();
    const command = new s3.PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: options.contentType,
      ContentLength: options.size,
    });
    const url = await presigner.getSignedUrl(client, command, {
      expiresIn: options.expiresInSeconds,
      signingDate: signedAt,
      // The presigner leaves Content-Type unsigned unless told otherwise; both must be bound.
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      // SigV4 dates have whole seconds.
      expiresAt: new Date(Math.floor(signedAt.getTime() / 1000) * 1000 + options.expiresInSeconds * 1000),
    };
  }

  /**
   * Ready means media can be read and stored (contract F: "storage writable"): the probe key is
   * read (NoSuchKey proves endpoint, credentials and bucket; HeadBucket is missing on some S3
   * clones, and a HEAD's 404 cannot tell a missing bucket from a missing key), then written and
   * deleted, which read-only credentials or a bucket refusing writes fail. One fixed key: a
   * failed delete leaves one object, never a pile, and instances probing at once only overwrite
   * each other's identical probe (a read finding it is as good as NoSuchKey).
   */
  async check(): Promise<void> {
    const { client, s3 } = await this.#load();
    const object = { Bucket: this.bucket, Key: healthProbeKey };
    try {
      const probe = await client.send(new s3.GetObjectCommand(object));
      await probe.Body?.transformToByteArray();
    } catch (error) {
      if (!(error instanceof s3.NoSuchKey))
        throw asStorageError(error, `The bucket ${this.bucket} is not reachable`);
    }
    try {
      await client.send(new s3.PutObjectCommand({ ...object, Body: 'ok', ContentType: 'text/plain' }));
      await client.send(new s3.DeleteObjectCommand(object));
    } catch (error) {
      throw asStorageError(error, `The bucket ${this.bucket} is not writable`);
    }
  }

  async #sniffedType(key: string, etag: string, size: number): Promise<string> {
    const id = `${key}\n${etag}`;
    const known = this.#types.get(id);
    if (known) return known;
    const head =
      size === 0
        ? Buffer.alloc(0)
        : await readAll(await this.read(key, { start: 0, end: Math.min(size, sniffBytes) - 1 }));
    const type = (await sniffContentType(head)) ?? 'application/octet-stream';
    // Objects never change under a key+ETag, so the answer is cached; the oldest entry goes first.
    if (this.#types.size >= sniffedTypeCacheSize) this.#types.delete(this.#types.keys().next().value!);
    this.#types.set(id, type);
    return type;
  }

  /** Removes cached blob files and closes connections. */
  async close(): Promise<void> {
    await this.#blobs.clear();
    const sdk = await this.#sdk?.catch(() => undefined);
    sdk?.client.destroy();
    this.#sdk = undefined;
  }

  /** The AWS SDK is loaded on first use: processes that store media on disk never pay for it. */
  #load(): Promise<Sdk> {
    this.#sdk ??= (async () => {
      const [s3, lib, presigner] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/lib-storage'),
        import('@aws-sdk/s3-request-presigner'),
      ]);
      const options = this.#options;
      const client = new s3.S3Client({
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        region: options.region,
        forcePathStyle: options.forcePathStyle,
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
        // Only checksums S3 requires: a presigned URL must not bind a checksum of an empty body, and
        // several S3-compatible services reject the newer default checksum headers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { client, s3, lib, presigner };
    })();
    return this.#sdk;
  }

  async #download(key: string, path: string): Promise<void> {
    const body = await this.read(key);
    await pipeline(body, createWriteStream(path, { flags: 'wx' }));
  }
}

interface Sdk {
  client: S3Client;
  s3: typeof import('@aws-sdk/client-s3');
  lib: typeof import('@aws-sdk/lib-storage');
  presigner: typeof import('@aws-sdk/s3-request-presigner');
}

function isNotFound(s3: Sdk['s3'], error: unknown): boolean {
  return (
    error instanceof s3.S3ServiceException &&
    (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)
  );
}

/** Keeps the SDK's message out (it can carry request details) but keeps it as the cause for logs. */
function asStorageError(error: unknown, message: string): StorageError {
  if (error instanceof StorageError) return error;
  return new StorageError('unavailable', message, { cause: error });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
