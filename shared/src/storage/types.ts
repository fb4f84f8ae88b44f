import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  lastModified: Date;
  etag: string;
}

export interface PutOptions {
  /** The sniffed (never client-declared) media type. */
  contentType: string;
  /** The write fails with `StorageError('too_large')` past this many bytes, leaving nothing behind. */
  maxBytes: number;
  /**
   * When set, the write fails with `StorageError('length_mismatch')` unless exactly this many bytes
   * arrive, leaving nothing behind (signed uploads bind the size).
   */
  expectedSize?: number;
  /** Sees every byte written, in order (the Scheduler hashes uploads while they stream). */
  onChunk?: (chunk: Buffer) => void;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface PresignOptions {
  contentType: string;
  size: number;
  expiresInSeconds: number;
  /** When the URL counts as signed; defaults to now. Expiry is `signedAt + expiresInSeconds`. */
  signedAt?: Date;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * Where media lives. Keys are validated by the caller against `mediaKeyPattern`;
 * implementations still refuse anything that is not a plain file name.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` to `key`; the object becomes visible only once complete. On failure nothing is
   * stored and `body` is left unconsumed past the failure point (not destroyed), so an HTTP adapter
   * can still answer before it drains or closes the connection.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<StoredObject>;
  head(key: string): Promise<StoredObject | null>;
  /** Throws `StorageError('not_found')` when there is no such object. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The whole object as a Blob (file-backed on local disk) for multipart uploads. */
  blob(key: string): Promise<Blob>;
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
  presignPut(key: string, options: PresignOptions): Promise<PresignedUpload>;
  /** Throws when the storage cannot be reached (for health checks). */
  check(): Promise<void>;
}

export type StorageErrorCode =
  | 'too_large'
  | 'not_found'
  | 'invalid_key'
  | 'type_mismatch'
  | 'unsupported_type'
  | 'unavailable'
  /** A body shorter or longer than the bound or declared size. */
  | 'length_mismatch'
  /** A signed upload URL whose signature does not verify. */
  | 'invalid_signature'
  /** A signed upload URL past its expiry. */
  | 'expired'
  /** A write to a key that already holds an object (keys are written once). */
  | 'already_exists';

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}
