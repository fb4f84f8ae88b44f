import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { sleep } from '../../publish/retry.ts';
import type { VkConfig } from './config.ts';
import { type VkErrorBody, vkError } from './errors.ts';
import { vkApiVersion } from './limits.ts';

/** Error 6 (too many requests per second) is asked again this many times before it fails the call. */
const tooManyRequestsRetries = 3;

/**
 * One VK API method: `POST {VK_API_URL}/{method}` with form parameters (VK takes query or form
 * parameters, never JSON), the token and `v`. VK answers errors with HTTP 200 and `{ error }`.
 * Error 6 (more than 3 requests a second) is waited out here.
 */
export async function vkCall<T>(
  config: VkConfig,
  token: string,
  method: string,
  params: Record<string, string | number | undefined>,
  what: string,
  signal?: AbortSignal,
): Promise<T> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) form.set(key, String(value));
  form.set('access_token', token);
  form.set('v', vkApiVersion);
  for (let attempt = 0; ; attempt++) {
    const response = await platformFetch(`${config.apiUrl}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      ...(signal ? { signal } : {}),
    });
    const body = (await readJson(response)) as { response?: T; error?: VkErrorBody } | undefined;
    if (!response.ok)
      throw new PlatformError(
        response.status === 429 ? 'rate_limited' : 'platform_unavailable',
        `VK answered HTTP ${response.status} to ${what}`,
        {
          status: response.status,
          ...(response.status < 500 && response.status !== 429 ? { retryable: false } : {}),
        },
      );
    if (body?.error) {
      if (body.error.error_code === 6 && attempt < tooManyRequestsRetries) {
        await sleep(config.tooManyRequestsWaitMs * (attempt + 1), signal);
        continue;
      }
      throw vkError(body.error, what);
    }
    if (!body || body.response === undefined)
      throw new PlatformError('platform_unavailable', `VK answered ${what} without a response`);
    return body.response;
  }
}
