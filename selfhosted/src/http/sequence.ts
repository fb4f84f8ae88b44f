import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middleware as one router layer: each runs after the one before calls `next()`, and an
 * error skips the rest. Express matches (and, under a mount path, rewrites `req.url` for) every
 * layer a request passes, so handlers every API request runs cost less as one layer. For
 * callback middleware (a returned promise is not awaited).
 */
export function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      const handler = handlers[index++];
      if (error !== undefined && error !== null) next(error);
      else if (!handler) next();
      else {
        try {
          handler(req, res, step);
        } catch (thrown) {
          next(thrown);
        }
      }
    };
    step();
  };
}
