import {
  type LocalStorage,
  mediaKeyPattern,
  mediaSandboxHeaders,
  ProblemError,
  problem,
  receiveSignedUpload,
  type Storage,
  serveMedia,
  unsatisfiableRange,
} from '@postwave/shared';
import { type Request, type RequestHandler, Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';
import { sendProblem } from '../http/errors.ts';

/**
 * Every answer under /media (an upload's 201 or its problems, OPTIONS, a path or method no route
 * serves) is sandboxed and never sniffed, as served media are (contract D), not only the
 * downloads. `app.ts` mounts it on /media before any handler that may answer there.
 */
export const sandboxMedia: RequestHandler = (_req, res, next) => {
  res.set(mediaSandboxHeaders);
  next();
};

/**
 * Public media: served by key, and the target of self-signed upload URLs (the signature is the
 * credential, so no API key). Express has already percent-decoded the key, and anything that is
 * not a plain key (`..`, slashes, backslashes, absolute paths) fails the key pattern: 404.
 */
export function mediaRouter(routes: ApiRoutes, storage: Storage): Router {
  const router = Router();

  const serve = async (req: Request, res: import('express').Response) => {
    const media = await serveMedia({
      storage,
      key: req.params.key as string,
      range: req.get('range'),
      ifNoneMatch: req.get('if-none-match'),
      ifModifiedSince: req.get('if-modified-since'),
      method: req.method === 'HEAD' ? 'HEAD' : 'GET',
    });
    if (media.status === 404) {
      res.set(media.headers);
      return sendProblem(res, problem('not_found', 'No such media'));
    }
    if (media.status === 416) {
      res.set(media.headers);
      return sendProblem(res, unsatisfiableRange());
    }
    res.status(media.status).set(media.headers);
    if (!media.body) return void res.end();
    media.body.on('error', (error) => {
      req.log?.warn({ err: error }, 'media stream failed');
      res.destroy();
    });
    res.on('close', () => media.body?.destroy());
    media.body.pipe(res);
  };
  on(router, routes.getMedia, serve);
  on(router, routes.headMedia, serve);

  on(router, routes.putSignedUpload, async (req, res) => {
    if (storage.kind !== 'local') {
      throw new ProblemError(problem('not_found', 'Uploads go straight to object storage on this server'));
    }
    const key = req.params.key as string;
    if (!mediaKeyPattern.test(key)) throw new ProblemError(problem('not_found', 'No such upload URL'));
    const query = new URL(req.originalUrl, 'http://local').searchParams;
    const media = await receiveSignedUpload({
      storage: storage as LocalStorage,
      key,
      query,
      body: req,
      contentType: req.get('content-type'),
      contentLength: req.get('content-length'),
    });
    res.status(201).json({ media });
  });

  return router;
}
