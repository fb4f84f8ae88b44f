import {
  createPresignedUpload,
  invalidRequest,
  PresignRequest,
  ProblemError,
  problem,
  type Storage,
} from '@postwave/shared';
import { type RequestHandler, Router } from 'express';
import multer from 'multer';
import { type ApiRoutes, on } from '../api-routes.ts';
import { StorageUploadEngine, type StoredUploadFile } from './upload-engine.ts';

/** Room for the multipart boundaries and part headers around the file itself. */
const multipartOverheadBytes = 64 * 1024;

export function uploadRouter(routes: ApiRoutes, storage: Storage, maxUploadBytes: number): Router {
  const router = Router();
  const upload = multer({
    storage: new StorageUploadEngine(storage, maxUploadBytes),
    limits: { fileSize: maxUploadBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
  });

  on(
    router,
    routes.uploadMedia,
    refuseDeclaredOversize(maxUploadBytes),
    upload.single('file'),
    (req, res) => {
      const file = req.file as StoredUploadFile | undefined;
      if (!file) {
        throw new ProblemError(
          problem('invalid_request', 'Send the file as multipart/form-data in the field "file"'),
        );
      }
      res.status(201).json({ media: file.media });
    },
  );

  on(router, routes.presignUpload, async (req, res) => {
    const parsed = PresignRequest.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const presigned = await createPresignedUpload({
      storage,
      request: parsed.data,
      maxBytes: maxUploadBytes,
    });
    res.status(201).json(presigned);
  });

  return router;
}

/**
 * A body whose Content-Length already says it cannot fit is refused before a byte is read, and
 * the connection closed, rather than receiving (and discarding) the whole thing first.
 */
function refuseDeclaredOversize(maxUploadBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxUploadBytes + multipartOverheadBytes) {
      res.set('connection', 'close');
      return next(
        new ProblemError(
          problem('payload_too_large', `The file is larger than the limit of ${maxUploadBytes} bytes`),
        ),
      );
    }
    next();
  };
}
