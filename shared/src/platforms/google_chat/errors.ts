import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, readJson } from '../../http/fetch.ts';
import { redirectedError } from '../chat-webhook.ts';

/**
 * Classifies Google Chat's answer to a webhook message: Google's `{ error: { code, message,
 * status } }`. The status name is repeated; Google's message only when it names no URL.
 */
export async function googleChatError(response: Response): Promise<PlatformError> {
  const status = response.status;
  const body = (await readJson(response, 64 * 1024).catch(() => undefined)) as
    | { error?: { status?: unknown; message?: unknown; details?: unknown } }
    | undefined;
  const name =
    typeof body?.error?.status === 'string' && /^[A-Z_]{1,40}$/.test(body.error.status)
      ? body.error.status
      : undefined;
  const message =
    typeof body?.error?.message === 'string' && !/https?:|key=|token=/i.test(body.error.message)
      ? body.error.message.replace(/[\u0000-\u001f]+/g, ' ').slice(0, 200)
      : undefined;
  const said = ` (${[name ?? `HTTP ${status}`, message].filter(Boolean).join(': ')})`;
  const init = { status };
  if (status >= 300 && status < 400) return redirectedError('Google Chat', status);
  if (status === 429 || name === 'RESOURCE_EXHAUSTED') {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return new PlatformError('rate_limited', `Google Chat rate-limited the webhook${said}`, {
      ...init,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  // An API key Google does not accept is a 400 with the reason API_KEY_INVALID.
  const badKey =
    Array.isArray(body?.error?.details) &&
    body.error.details.some((d) => (d as { reason?: unknown })?.reason === 'API_KEY_INVALID');
  if (status === 401 || status === 403 || badKey) {
    return new PlatformError(
      'credentials_invalid',
      `Google Chat refused the webhook's key or token${said}: the webhook was deleted or its URL changed; paste its current URL`,
      init,
    );
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `Google Chat knows no such space or webhook${said}`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Google Chat is unavailable${said}`, init);
  const media = /card|image|widget/i.test(message ?? '');
  return new PlatformError(
    media ? 'media_rejected' : 'content_rejected',
    `Google Chat refused the message${said}`,
    init,
  );
}
