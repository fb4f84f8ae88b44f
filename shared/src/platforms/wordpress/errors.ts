import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a refusal lands on the right side: the post, a file, a term. */
export type WordPressOperation = 'post' | 'media' | 'terms' | 'account' | 'read';

/** WordPress REST errors are `{ code, message, data: { status } }`. */
interface WordPressErrorBody {
  code?: unknown;
  message?: unknown;
}

/** Refusals of the login itself: a wrong user or password, or application passwords turned off. */
const loginCodes = new Set([
  'incorrect_password',
  'invalid_username',
  'invalid_email',
  'empty_username',
  'empty_password',
  'rest_not_logged_in',
  'application_passwords_disabled',
  'application_passwords_disabled_for_user',
]);

export function wordpressCode(body: unknown): string | undefined {
  const code = (body as WordPressErrorBody | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Maps a WordPress REST error answer to our codes, keeping WordPress's message (cleaned and cut
 * short). `host` names the site in messages.
 */
export function wordpressError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: WordPressOperation,
  host: string,
): PlatformError {
  const code = wordpressCode(body);
  const said = remoteText((body as WordPressErrorBody | undefined)?.message);
  const detail = said ? `: ${said}${code ? ` (${code})` : ''}` : ` (HTTP ${status})`;
  const init = { status };

  if (code?.startsWith('application_passwords_disabled')) {
    return new PlatformError(
      'credentials_invalid',
      `${host} does not accept application passwords (they need HTTPS, or a site that allows them)${detail}`,
      init,
    );
  }
  if ((code && loginCodes.has(code)) || (status === 401 && operation === 'account')) {
    return new PlatformError(
      'credentials_invalid',
      `WordPress at ${host} refused the user name or application password${detail}`,
      init,
    );
  }
  if (status === 401) {
    // The login was not seen at all: WordPress treats the request as anonymous. Some servers
    // (Apache with CGI/FastCGI) drop the Authorization header before PHP sees it.
    return new PlatformError(
      'credentials_invalid',
      `WordPress at ${host} did not accept the login for this request (check the application password, and that the server passes the Authorization header to WordPress)${detail}`,
      init,
    );
  }
  if (status === 429) {
    const wait = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('rate_limited', `${host} is limiting requests${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (status === 403 && operation === 'terms') {
    return new PlatformError(
      'content_rejected',
      `WordPress does not let this user create that category or tag; create it on the site first, or choose an existing one${detail}`,
      init,
    );
  }
  if (code === 'rest_cannot_publish') {
    return new PlatformError(
      'content_rejected',
      `This WordPress user may not publish posts (save it as a draft, or connect a user with the Author role or above)${detail}`,
      init,
    );
  }
  if (status === 403) {
    return new PlatformError(
      'credentials_invalid',
      `WordPress at ${host} does not let this user do that (an Author role or above is needed to publish)${detail}`,
      init,
    );
  }
  if (status === 404 || status === 410) {
    return new PlatformError(
      'target_unreachable',
      code
        ? `WordPress at ${host} has no such REST route or item${detail}`
        : `No WordPress REST API answered at ${host} (HTTP ${status}); check the site address`,
      init,
    );
  }
  if (status === 413 || status === 415 || (operation === 'media' && code !== undefined && status < 600)) {
    // Upload refusals (file type, size, a failed sideload) are answered as 4xx or 500 with a code:
    // sending the same file again cannot help.
    return new PlatformError('media_rejected', `WordPress did not accept the image${detail}`, {
      ...init,
      retryable: false,
    });
  }
  if (status >= 500) {
    const wait = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('platform_unavailable', `WordPress at ${host} is unavailable${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  return new PlatformError('content_rejected', `WordPress refused the post${detail}`, init);
}
