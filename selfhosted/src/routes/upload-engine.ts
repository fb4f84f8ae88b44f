import { type MediaObject, type Storage, storeUpload } from '@postwave/shared';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';

/** What the engine adds to multer's file object. */
export interface StoredUploadFile extends Express.Multer.File {
  media: MediaObject;
}

/**
 * A multer storage engine that streams the part straight into our Storage (sniffing the type on
 * the way), so an upload is never held in memory or written twice.
 */
export class StorageUploadEngine implements StorageEngine {
  readonly #storage: Storage;
  readonly #maxBytes: number;

  constructor(storage: Storage, maxBytes: number) {
    this.#storage = storage;
    this.#maxBytes = maxBytes;
  }

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<StoredUploadFile>) => void,
  ): void {
    storeUpload({
      storage: this.#storage,
      body: file.stream,
      filename: file.originalname,
      declaredType: file.mimetype,
      maxBytes: this.#maxBytes,
    }).then(
      (media) => callback(null, { media, size: media.size }),
      (error: unknown) => {
        // storeUpload leaves the part unread after a failure; busboy needs it consumed to finish.
        file.stream.resume();
        callback(error);
      },
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    const media = (file as Partial<StoredUploadFile>).media;
    if (!media) {
      callback(null);
      return;
    }
    this.#storage.delete(media.key).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
