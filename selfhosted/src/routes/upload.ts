import {
  createPresignedUpload,
  declaredTooLarge,
  PresignRequest,
  parseBody,
  receiveMultipartUpload,
  type Storage,
} from '@postwave/shared';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';

export function uploadRouter(routes: ApiRoutes, storage: Storage, maxUploadBytes: number): Router {
  const router = Router();

  on(router, routes.uploadMedia, async (req, res) => {
    // Refused unread: close the connection rather than receive (and discard) the whole body first.
    if (declaredTooLarge(req.headers, maxUploadBytes)) res.set('connection', 'close');
    const media = await receiveMultipartUpload({ storage, request: req, maxBytes: maxUploadBytes });
    res.status(201).json({ media });
  });

  on(router, routes.presignUpload, async (req, res) => {
    const parsed = parseBody(PresignRequest, req.body);
    const presigned = await createPresignedUpload({
      storage,
      request: parsed,
      maxBytes: maxUploadBytes,
    });
    res.status(201).json(presigned);
  });

  return router;
}
