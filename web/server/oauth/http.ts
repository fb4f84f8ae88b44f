import { hasNul } from '@postwave/shared';
import { type AppContext, getContext } from '#server/context.ts';
import { isInvalidInputError } from '#server/db/errors.ts';
import { ClientMetadataError } from './clients.ts';
import { OAuthError } from './errors.ts';
import { oauthError } from './metadata.ts';
import { readSmallText } from './read.ts';

/** A form body (application/x-www-form-urlencoded), at most 64 KiB. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded/i.test(type))
    throw new OAuthError('invalid_request', 'Send application/x-www-form-urlencoded');
  const form = new URLSearchParams(await readSmallText(request, 64 * 1024));
  if (hasNul([...form.keys(), ...form.values()]))
    throw new OAuthError('invalid_request', 'Form fields may not contain NUL characters');
  return form;
}

/** Wraps an OAuth endpoint: RFC 6749 error bodies, never a stack trace. */
export function oauthRoute(handler: (request: Request, ctx: AppContext) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    let ctx: AppContext | undefined;
    try {
      ctx = await getContext();
      return await handler(request, ctx);
    } catch (error) {
      if (error instanceof OAuthError) return oauthError(error.error, error.message, error.status);
      if (error instanceof ClientMetadataError) return oauthError(error.error, error.message);
      if (isInvalidInputError(error))
        return oauthError('invalid_request', 'A value in the request cannot be stored');
      ctx?.logger.error({ err: error }, 'unhandled error in OAuth endpoint');
      return oauthError('server_error', 'Something went wrong on our side', 500);
    }
  };
}
