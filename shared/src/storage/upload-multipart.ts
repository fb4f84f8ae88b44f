import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import multer from 'multer';
import { ProblemError, problem } from '../problems.ts';
import type { MediaObject } from '../schemas/media.ts';
import { type Storage, StorageError } from './types.ts';
import { storeUpload } from './upload.ts';

/**
 * The one multipart parser of both servers: multer (over busboy), driven directly rather than as
 * Express middleware, so the Next route handler uses it too. It needs only a readable body with
 * `headers`: an Express request is one, and `requestFromWeb` makes one from a Fetch `Request`.
 */
export interface MultipartRequest extends Readable {
  headers: IncomingHttpHeaders;
}

/** Room for the multipart boundaries and part headers around the file itself. */
export const multipartOverheadBytes = 64 * 1024;

/** A body whose declared length can never fit is refused before a byte of it is read. */
export function declaredTooLarge(headers: IncomingHttpHeaders, maxBytes: number): boolean {
  const declared = Number(headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes + multipartOverheadBytes;
}

export interface ReceiveMultipartOptions {
  storage: Storage;
  request: MultipartRequest;
  maxBytes: number;
  /** Sees every stored byte of the file in order (hashing while streaming). */
  onChunk?: ((chunk: Buffer) => void) | undefined;
}

interface ParsedFile {
  originalname: string;
  mimetype: string;
  stream: Readable;
  media?: MediaObject;
}

/**
 * Streams the one file in multipart field `file` into storage (never held in memory) and returns
 * its media object. Throws StorageError for 413 and 415 (docs/storage.md), ProblemError 415 for a body
 * that is not multipart/form-data, and ProblemError 400 for anything else wrong with the body: no
 * file, another field, two files, malformed.
 */
export async function receiveMultipartUpload(options: ReceiveMultipartOptions): Promise<MediaObject> {
  const { storage, request, maxBytes, onChunk } = options;
  // A body of another type is the wrong media type (415, as a JSON route answers a non-JSON body);
  // no body at all, or a multipart body without its file, is a bad request (400, below).
  const type = request.headers['content-type']?.trim();
  if (type && !/^multipart\/form-data\s*(;|$)/i.test(type)) {
    throw new ProblemError(
      problem('unsupported_media_type', 'Send the file as multipart/form-data in the field "file"'),
    );
  }
  if (declaredTooLarge(request.headers, maxBytes)) {
    throw new StorageError('too_large', `The file is larger than the limit of ${maxBytes} bytes`);
  }
  const upload = multer({
    storage: storageEngine(storage, maxBytes, onChunk),
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
  }).single('file');
  const target = request as MultipartRequest & { file?: ParsedFile };
  try {
    await new Promise<void>((resolve, reject) => {
      upload(target as never, {} as never, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  } catch (error) {
    throw multipartError(error, maxBytes);
  }
  const media = target.file?.media;
  if (!media) {
    throw new ProblemError(
      problem('invalid_request', 'Send the file as multipart/form-data in the field "file"'),
    );
  }
  return media;
}

/** A Fetch API request body as the Node stream the parser reads, with the headers it needs. */
export function requestFromWeb(request: Request): MultipartRequest {
  const body = request.body ? Readable.fromWeb(request.body as unknown as NodeWebStream) : Readable.from([]);
  const headers: IncomingHttpHeaders = {};
  const contentType = request.headers.get('content-type');
  if (contentType) headers['content-type'] = contentType;
  const contentLength = request.headers.get('content-length');
  // The parser only reads a request that says it has a body.
  if (contentLength !== null) headers['content-length'] = contentLength;
  else if (request.body) headers['transfer-encoding'] = 'chunked';
  return Object.assign(body, { headers });
}

/** Streams each accepted part straight into Storage, sniffing its type on the way. */
function storageEngine(
  storage: Storage,
  maxBytes: number,
  onChunk: ((chunk: Buffer) => void) | undefined,
): multer.StorageEngine {
  const engine = {
    _handleFile(_req: unknown, file: ParsedFile, callback: (error?: unknown, info?: object) => void) {
      storeUpload({
        storage,
        body: file.stream,
        filename: file.originalname || 'upload',
        declaredType: file.mimetype,
        maxBytes,
        onChunk,
      }).then(
        (media) => callback(null, { media, size: media.size }),
        (error: unknown) => {
          // storeUpload stops reading at the failure; busboy needs the part consumed to finish.
          file.stream.resume();
          callback(error);
        },
      );
    },
    _removeFile(_req: unknown, file: ParsedFile, callback: (error: Error | null) => void) {
      if (!file.media) return callback(null);
      storage.delete(file.media.key).then(
        () => callback(null),
        (error: Error) => callback(error),
      );
    },
  };
  return engine as unknown as multer.StorageEngine;
}

/** Parser failures as problem answers (400, 413); their messages may quote the body, so never echoed. */
function multipartError(error: unknown, maxBytes: number): unknown {
  if (error instanceof StorageError || error instanceof ProblemError) return error;
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new StorageError('too_large', `The file is larger than the limit of ${maxBytes} bytes`);
      case 'LIMIT_UNEXPECTED_FILE':
        return badRequest(`Send the file in the multipart field "file", not "${error.field}"`);
      case 'LIMIT_FILE_COUNT':
        return badRequest('Send exactly one file per upload');
      default:
        return badRequest(`The multipart body is not acceptable (${error.code})`);
    }
  }
  if (error instanceof Error && /^Request (aborted|closed)$/.test(error.message)) {
    return badRequest('The client closed the connection before the body was complete');
  }
  if (error instanceof Error && /Multipart|Unexpected end of form|Malformed|boundary/i.test(error.message)) {
    return badRequest('The multipart body is malformed');
  }
  return error;
}

function badRequest(detail: string): ProblemError {
  return new ProblemError(problem('invalid_request', detail));
}
