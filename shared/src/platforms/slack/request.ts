import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { slackHttpError } from './errors.ts';

type Params = Record<string, string | number | boolean | undefined>;

/** The envelope every Web API answer has; `error` is set when `ok` is false. */
export interface SlackAnswer {
  ok: boolean;
  error?: string;
}

/** One Web API request; HTTP failures throw, `{ ok: false }` answers are returned for the caller to judge. */
export async function slackRequest<T extends object>(
  apiUrl: string,
  method: string,
  params: Params,
  options: { token?: string; read?: boolean; signal?: AbortSignal | undefined },
): Promise<T & SlackAnswer> {
  const fields = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) fields.set(name, String(value));
  }
  const url = new URL(`${apiUrl}/${method}`);
  if (options.read) url.search = fields.toString();
  const response = await platformFetch(url, {
    method: options.read ? 'GET' : 'POST',
    headers: {
      accept: 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.read ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(options.read ? {} : { body: fields.toString() }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const body = (await readJson(response)) as (T & SlackAnswer) | { nonJsonBody: string } | undefined;
  const error = body && 'error' in body && typeof body.error === 'string' ? body.error : undefined;
  if (!response.ok) throw slackHttpError(response.status, response.headers, error);
  if (!body || typeof body !== 'object' || 'nonJsonBody' in body || typeof body.ok !== 'boolean') {
    throw new PlatformError('platform_unavailable', `Slack answered ${method} without its JSON envelope`, {
      status: response.status,
    });
  }
  return body;
}
