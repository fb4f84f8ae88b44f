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
  put(key: string, body: Readable, options: PutOptions): Promise<StoredObject>;
  head(key: string): Promise<StoredObject | null>;
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
  | 'unavailable';

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}
