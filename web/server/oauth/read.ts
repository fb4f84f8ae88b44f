import { readLimitedText } from '#server/http/body.ts';
import { OAuthError } from './errors.ts';

/** A small OAuth request body; too large is an OAuth `invalid_request` with status 413. */
export function readSmallText(request: Request, maxBytes: number): Promise<string> {
  return readLimitedText(
    request,
    maxBytes,
    () => new OAuthError('invalid_request', 'The body is too large', { status: 413 }),
  );
}
