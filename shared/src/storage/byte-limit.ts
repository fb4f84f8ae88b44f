import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { StorageError } from './types.ts';

export interface ByteLimitOptions {
  maxBytes: number;
  /** Exactly this many bytes must pass, or the stream fails at its end. */
  expectedSize?: number | undefined;
  /** Sees every chunk that passes (e.g. to hash it while streaming). */
  onChunk?: (chunk: Buffer) => void;
}

/**
 * A pass-through that counts bytes and fails with `too_large` the moment the limit is crossed,
 * so a write is aborted mid-stream rather than after the whole body arrived.
 */
export class ByteLimit extends Transform {
  bytes = 0;
  readonly #maxBytes: number;
  readonly #expectedSize: number | undefined;
  readonly #onChunk: ((chunk: Buffer) => void) | undefined;

  constructor(options: ByteLimitOptions) {
    super();
    this.#maxBytes =
      options.expectedSize === undefined
        ? options.maxBytes
        : Math.min(options.maxBytes, options.expectedSize);
    this.#expectedSize = options.expectedSize;
    this.#onChunk = options.onChunk;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#maxBytes) {
      callback(
        this.#expectedSize !== undefined && this.bytes > this.#expectedSize
          ? new StorageError(
              'length_mismatch',
              `The body is longer than the declared ${this.#expectedSize} bytes`,
            )
          : new StorageError('too_large', `The file is larger than the limit of ${this.#maxBytes} bytes`),
      );
      return;
    }
    this.#onChunk?.(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#expectedSize !== undefined && this.bytes !== this.#expectedSize) {
      callback(
        new StorageError(
          'length_mismatch',
          `The body has ${this.bytes} bytes but ${this.#expectedSize} were declared`,
        ),
      );
      return;
    }
    callback();
  }
}

/**
 * Feeds `source` into a fresh ByteLimit without letting a failure downstream destroy `source`:
 * an HTTP request body must survive so the adapter can still send its 413. A source that errors
 * or closes before its end (a dropped client) fails the copy instead of leaving it hanging.
 */
export function limitedCopy(source: Readable, options: ByteLimitOptions): ByteLimit {
  const limit = new ByteLimit(options);
  // The consumer learns of failures through its own pipeline (or `limit.errored`); without this,
  // `pipe` re-throws a limit error as uncaught once the consumer has stopped listening.
  limit.on('error', () => {});
  const interrupted = () => source.errored ?? new Error('The upload was interrupted before it ended');
  if (source.destroyed && !source.readableEnded) {
    limit.destroy(interrupted());
    return limit;
  }
  const onError = (error: Error) => limit.destroy(error);
  const onClose = () => {
    if (!source.readableEnded) limit.destroy(interrupted());
  };
  source.on('error', onError);
  source.on('close', onClose);
  limit.on('close', () => {
    source.off('error', onError);
    source.off('close', onClose);
    source.unpipe(limit);
  });
  source.pipe(limit);
  return limit;
}
