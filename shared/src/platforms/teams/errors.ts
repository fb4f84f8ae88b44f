import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, readJson } from '../../http/fetch.ts';
import { redirectedError } from '../chat-webhook.ts';

/**
 * Classifies a Teams webhook answer that is not a success. Workflows (Logic Apps) answer
 * `{ error: { code, message } }`; only the code is repeated, since a message could quote the URL.
 */
export async function teamsError(response: Response): Promise<PlatformError> {
  const status = response.status;
  const body = (await readJson(response, 64 * 1024).catch(() => undefined)) as
    | { error?: { code?: unknown } }
    | undefined;
  const code =
    typeof body?.error?.code === 'string' && /^[A-Za-z0-9_.]{1,80}$/.test(body.error.code)
      ? body.error.code
      : undefined;
  const said = code ? ` (${code})` : ` (HTTP ${status})`;
  const init = { status };
  if (status >= 300 && status < 400) return redirectedError('Teams', status);
  if (status === 429) {
    return new PlatformError('rate_limited', `Teams rate-limited the webhook${said}`, {
      ...init,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) ?? 1000,
    });
  }
  if (status === 401 || status === 403) {
    return new PlatformError(
      'credentials_invalid',
      `Teams refused the webhook's signature${said}: the flow's URL changed or was turned off; paste its current URL`,
      init,
    );
  }
  if (status === 404 || status === 410) {
    return new PlatformError(
      'target_unreachable',
      `The Teams workflow or webhook no longer exists${said}`,
      init,
    );
  }
  if (status === 413)
    return new PlatformError('content_rejected', `Teams refused the card as too large${said}`, init);
  if (status === 408 || status >= 500) {
    return new PlatformError('platform_unavailable', `Teams is unavailable${said}`, init);
  }
  return new PlatformError('content_rejected', `Teams refused the card${said}`, init);
}

/**
 * Office 365 connectors answer 200 with the text `1` on success, and 200 with an explanation
 * when Teams refused the message (e.g. "…returned HTTP error 413…").
 */
export function connectorRefusal(text: string): PlatformError | undefined {
  const trimmed = text.trim();
  if (trimmed === '1' || trimmed === '') return undefined;
  const httpError = /HTTP error (\d{3})/i.exec(trimmed)?.[1];
  if (httpError === '429')
    return new PlatformError('rate_limited', 'Teams rate-limited the webhook (HTTP 429)', {
      retryAfterMs: 1000,
    });
  if (httpError && Number(httpError) >= 500)
    return new PlatformError('platform_unavailable', `Teams is unavailable (HTTP ${httpError})`);
  return new PlatformError(
    'content_rejected',
    `Teams refused the card${httpError ? ` (HTTP ${httpError})` : ''}`,
  );
}
