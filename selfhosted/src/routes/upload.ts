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
import { lingerAfterRefusal } from '../http/linger.ts';

export function uploadRouter(routes: ApiRoutes, storage: Storage, maxUploadBytes: number): Router {
  const router = Router();

  on(router, routes.uploadMedia, async (req, res) => {
    // Refused unread, answered at once; the body still arriving is discarded for a while, never stored.
    if (declaredTooLarge(req.headers, maxUploadBytes)) lingerAfterRefusal(req, res);
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
