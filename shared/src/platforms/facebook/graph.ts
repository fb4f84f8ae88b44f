import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';

/**
 * Meta's Graph API, shared by Facebook Pages and Instagram: requests carrying `access_token`
 * and the classification of Graph's error body
 * `{ error: { message, type, code, error_subcode, fbtrace_id } }`.
 */
export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id?: string;
  };
}

/** Graph's rate-limit codes: application (4), user (17), page (32), custom (613), BUC (80001-80014). */
const retryLaterCodes = new Set([4, 17, 32, 613]);
const reconnectCodes = new Set([102, 190]);
/** Instagram: the publishing quota of the last 24 hours is used up. */
const publishingLimitSubcodes = new Set([2207042]);
/** Instagram: the container is not ready yet. */
const notReadySubcodes = new Set([2207027]);
const mediaCodes = new Set([324, 352, 381, 1363030, 1363040, 36000, 36001, 36003, 36004]);
const mediaSubcodes = new Set([2207001, 2207004, 2207005, 2207009, 2207023, 2207026, 1363040]);

/**
 * Classifies a Graph error. `platform` names it for the user ("Facebook", "Instagram"), `what`
 * names the request ("the post").
 */
export function graphError(
  status: number,
  body: unknown,
  headers: Headers,
  what: string,
  platform: string,
): PlatformError {
  const error = (body as GraphErrorBody | undefined)?.error ?? {};
  const code = typeof error.code === 'number' ? error.code : undefined;
  const subcode = typeof error.error_subcode === 'number' ? error.error_subcode : undefined;
  const said = describe(error);
  const init = { status };

  if (code !== undefined && reconnectCodes.has(code)) {
    return new PlatformError(
      'needs_reconnect',
      `${platform} no longer accepts this connection (expired, revoked or changed password); reconnect the account${said}`,
      init,
    );
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return new PlatformError(
      'needs_reconnect',
      `${platform} refused ${what}: the connection lacks a permission; reconnect the account and grant every permission asked${said}`,
      init,
    );
  }
  if (subcode !== undefined && publishingLimitSubcodes.has(subcode)) {
    return new PlatformError(
      'rate_limited',
      `${platform}'s publishing limit for the last 24 hours is used up${said}`,
      {
        ...init,
        retryable: false,
      },
    );
  }
  if (
    (code !== undefined && (retryLaterCodes.has(code) || (code >= 80001 && code <= 80014))) ||
    status === 429
  ) {
    return new PlatformError(
      'rate_limited',
      `${platform} rate limit reached during ${what}; retry later${said}`,
      {
        ...init,
        retryAfterMs: regainAccessMs(headers),
      },
    );
  }
  if (code === 341) {
    return new PlatformError(
      'rate_limited',
      `${platform} temporarily blocks posting from this account (feed action limit); wait before posting again${said}`,
      { ...init, retryable: false },
    );
  }
  if (code === 368) {
    return new PlatformError(
      'content_rejected',
      `${platform} blocked ${what} as abusive or against its policies; retrying will not help${said}`,
      init,
    );
  }
  if (code === 506) {
    return new PlatformError(
      'duplicate_content',
      `${platform} refused a duplicate of a recent post${said}`,
      init,
    );
  }
  if ((code !== undefined && mediaCodes.has(code)) || (subcode !== undefined && mediaSubcodes.has(subcode))) {
    return new PlatformError('media_rejected', `${platform} refused the media${said}`, init);
  }
  if (code === 9004 || subcode === 2207052 || subcode === 2207003) {
    return new PlatformError(
      'media_unavailable',
      `${platform} could not fetch the media from its URL: it must be publicly reachable (check SERVICE_PUBLIC_URL or the object-storage public URL)${said}`,
      { ...init, retryable: false },
    );
  }
  if (code === 9007 || (subcode !== undefined && notReadySubcodes.has(subcode))) {
    return new PlatformError(
      'platform_unavailable',
      `${platform} had not finished processing the media${said}`,
      init,
    );
  }
  if (code === 803 || (code === 100 && subcode === 33) || status === 404) {
    return new PlatformError(
      'target_unreachable',
      `${platform} does not know this account, or the token cannot reach it${said}`,
      init,
    );
  }
  if (code === 1 || code === 2 || status >= 500) {
    return new PlatformError('platform_unavailable', `${platform} is temporarily unavailable${said}`, init);
  }
  if (code === 25 || code === 24) {
    return new PlatformError(
      'target_unreachable',
      `${platform} refused ${what} for this account${said}`,
      init,
    );
  }
  if (status === 400 || status === 403)
    return new PlatformError('content_rejected', `${platform} rejected ${what}${said}`, init);
  if (status === 401)
    return new PlatformError('credentials_invalid', `${platform} refused the access token${said}`, init);
  return new PlatformError('internal', `${platform} answered HTTP ${status} to ${what}${said}`, init);
}

function describe(error: NonNullable<GraphErrorBody['error']>): string {
  const message = (error.error_user_msg ?? error.message ?? '').slice(0, 300);
  const codes = [error.code, error.error_subcode].filter((c) => c !== undefined).join('/');
  if (!message && !codes) return '';
  return `: ${message}${codes ? ` (code ${codes})` : ''}`;
}

/**
 * `X-Business-Use-Case-Usage` (Pages, Instagram) and `X-App-Usage` report usage in percent;
 * the BUC header also says how many minutes until access comes back.
 */
export function regainAccessMs(headers: Headers): number | undefined {
  const raw = headers.get('x-business-use-case-usage');
  if (!raw) return undefined;
  try {
    const usage = JSON.parse(raw) as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Object.values(usage)
      .flat()
      .map((entry) => entry.estimated_time_to_regain_access ?? 0);
    const longest = Math.max(0, ...minutes);
    return longest > 0 ? longest * 60_000 : undefined;
  } catch {
    return undefined;
  }
}

export type GraphParams = Record<string, string | number | boolean | undefined>;

/** A Graph API client for one access token. */
export class GraphClient {
  readonly #base: string;
  readonly #token: string;
  readonly #signal: AbortSignal | undefined;
  readonly #platform: string;

  constructor(options: { base: string; token: string; signal?: AbortSignal | undefined; platform: string }) {
    this.#base = options.base;
    this.#token = options.token;
    this.#signal = options.signal;
    this.#platform = options.platform;
  }

  get<T>(path: string, params: GraphParams, what: string): Promise<T> {
    const url = new URL(`${this.#base}${path}`);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, String(value));
    if (this.#token) url.searchParams.set('access_token', this.#token);
    return this.#send<T>(url, { method: 'GET' }, what);
  }

  /** A form POST (`application/x-www-form-urlencoded`), as Graph's documentation sends them. */
  post<T>(path: string, params: GraphParams, what: string, base = this.#base): Promise<T> {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined) form.set(key, String(value));
    form.set('access_token', this.#token);
    return this.#send<T>(
      `${base}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      what,
    );
  }

  /** A DELETE of an object (`DELETE /{id}`), the token in the query as for GET. */
  delete<T>(path: string, what: string): Promise<T> {
    const url = new URL(`${this.#base}${path}`);
    if (this.#token) url.searchParams.set('access_token', this.#token);
    return this.#send<T>(url, { method: 'DELETE' }, what);
  }

  /** A multipart POST (file chunks). */
  postMultipart<T>(path: string, form: FormData, what: string, base: string, timeoutMs: number): Promise<T> {
    form.set('access_token', this.#token);
    return this.#send<T>(`${base}${path}`, { method: 'POST', body: form, timeoutMs }, what);
  }

  async #send<T>(url: string | URL, init: RequestInit & { timeoutMs?: number }, what: string): Promise<T> {
    const response = await platformFetch(url, { ...init, signal: this.#signal });
    const body = await readJson(response);
    if (!response.ok || (body as GraphErrorBody | undefined)?.error) {
      throw graphError(response.ok ? 400 : response.status, body, response.headers, what, this.#platform);
    }
    return (body ?? {}) as T;
  }
}

/**
 * `POST /{object-id}/comments` with `message`: a comment under a Page post (or video) or an
 * Instagram media; both Graph APIs document the same edge and answer `{ id }`. Returns the id.
 */
export async function postGraphComment(
  client: GraphClient,
  objectId: string,
  message: string,
): Promise<string> {
  if (!/^[\d_]+$/.test(objectId)) {
    throw new PlatformError('content_rejected', `Cannot comment on ${objectId}: not a Graph object id`, {
      retryable: false,
    });
  }
  const created = await client.post<{ id?: string }>(`/${objectId}/comments`, { message }, 'the comment');
  if (!created.id) throw new PlatformError('internal', 'The comment was created but no id returned');
  return created.id;
}

/** The Graph base with its version segment, unless the configured URL already ends with one. */
export function versionedGraphBase(url: string, version: string): string {
  if (/\/v\d+\.\d+$/.test(url) || version === 'none') return url;
  return `${url}/${version}`;
}
