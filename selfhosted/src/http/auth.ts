import { hash, timingSafeEqual } from 'node:crypto';
import { ProblemError, problem } from '@postwave/shared';
import type { RequestHandler } from 'express';

// One-shot hashing: much cheaper per request than a createHash() object.
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * Requires `x-api-key` to equal the configured key. Both sides are hashed first so the
 * comparison is constant-time whatever the length of what the client sent.
 */
export function requireApiKey(apiKey: string): RequestHandler {
  const expected = digest(apiKey);
  return (req, _res, next) => {
    const sent = req.headers['x-api-key'];
    if (typeof sent === 'string' && sent.length > 0 && timingSafeEqual(digest(sent), expected)) return next();
    next(
      new ProblemError(
        problem(
          'unauthorized',
          sent === undefined ? 'Send the API key in the x-api-key header' : 'The API key is not valid',
        ),
      ),
    );
  };
}
