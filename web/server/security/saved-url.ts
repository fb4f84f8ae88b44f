import { checkUrl, UnsafeUrlError } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { validationFailed } from '#server/http/problems.ts';

/**
 * A URL a user saves for the server to call later (a shortener, a feed), checked now against the
 * SSRF rules (contract section D, honouring ALLOW_PRIVATE_HOSTS), so a private address is refused
 * at save rather than stored to fail every call: 422 naming `path`. A name that does not resolve
 * now may later, so it is kept; the safe fetch checks the URL again on every call.
 */
export async function checkSavedUrl(ctx: AppContext, url: string, path: string, what: string): Promise<URL> {
  try {
    return (await checkUrl(url, { allowPrivateHosts: ctx.config.allowPrivateHosts })).url;
  } catch (error) {
    if (error instanceof UnsafeUrlError && (error.code === 'host_not_found' || error.code === 'fetch_failed'))
      return new URL(url);
    if (error instanceof UnsafeUrlError)
      throw validationFailed(`${what} cannot be used`, [{ path, code: error.code, message: error.message }]);
    throw error;
  }
}
