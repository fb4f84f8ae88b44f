import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type WordPressOperation, wordpressCode, wordpressError } from './errors.ts';

export interface WordPressRequest {
  method: 'GET' | 'POST';
  /** A REST route, e.g. `/wp/v2/posts`. */
  route: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  operation: WordPressOperation;
  timeoutMs?: number;
}

export interface WordPressAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Sites whose REST API answers only at `?rest_route=` (plain permalinks: `/wp-json/` is then a
 * theme's 404 page). Remembered per site so later calls go straight there; bounded.
 */
const plainPermalinkSites = new Set<string>();
const maxRememberedSites = 1000;

/**
 * One account's calls to its WordPress site: Basic auth with the application password, the
 * `/wp-json` or `?rest_route=` form of the URL, redirects refused (a redirect would drop the
 * login or turn a POST into a GET), error mapping in one place.
 */
export class WordPressApi {
  readonly site: string;
  readonly host: string;
  readonly #authorization: string;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  /** `fetch`: the site is user-chosen on the Scheduler, which passes its SSRF-safe fetch. */
  constructor(
    site: string,
    login: { username: string; applicationPassword: string },
    signal?: AbortSignal,
    fetch?: FetchLike,
  ) {
    this.site = site;
    this.host = new URL(site).host;
    this.#authorization = `Basic ${Buffer.from(`${login.username}:${login.applicationPassword}`).toString('base64')}`;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  async request<T>(request: WordPressRequest): Promise<WordPressAnswer<T>> {
    const answer = await this.answer(request);
    const { status, body, headers } = answer;
    if (status < 200 || status >= 300) throw this.error(answer, request.operation);
    if (body === undefined || body === null || typeof body !== 'object' || 'nonJsonBody' in body) {
      throw new PlatformError('platform_unavailable', `${this.host} did not answer like a WordPress site`, {
        status,
      });
    }
    return { status, body: body as T, headers };
  }

  /**
   * The site's answer whatever its status (a caller that handles some refusals itself), after the
   * `?rest_route=` fallback; a redirect throws.
   */
  async answer(request: WordPressRequest): Promise<WordPressAnswer<unknown>> {
    const plain = plainPermalinkSites.has(this.site);
    let answer = await this.#send(request, plain);
    const notRest = (a: WordPressAnswer<unknown>) =>
      (a.status >= 300 && a.status < 400) || (a.status === 404 && wordpressCode(a.body) === undefined);
    if (!plain && notRest(answer)) {
      // No REST answer at /wp-json (a theme's 404 page, or WordPress's canonical redirect to a
      // path that does not exist): the site may use plain permalinks. Ask once at ?rest_route=.
      const retried = await this.#send(request, true);
      if (!notRest(retried)) {
        if (plainPermalinkSites.size >= maxRememberedSites) plainPermalinkSites.clear();
        plainPermalinkSites.add(this.site);
        answer = retried;
      }
    }
    if (answer.status >= 300 && answer.status < 400) {
      const location = answer.headers.get('location');
      throw new PlatformError(
        'target_unreachable',
        `WordPress at ${this.host} redirects its REST API${location ? ` to ${location.slice(0, 200)}` : ''}; use the address it redirects to as the site address`,
        { status: answer.status },
      );
    }
    return answer;
  }

  /** The PlatformError for a refusal (see `wordpressError`). */
  error(answer: WordPressAnswer<unknown>, operation: WordPressOperation): PlatformError {
    return wordpressError(answer.status, answer.body, answer.headers, operation, this.host);
  }

  /** The request's URL in either form, with the query. */
  url(route: string, query: Record<string, string> = {}, plain = plainPermalinkSites.has(this.site)): string {
    const params = new URLSearchParams(query);
    if (plain) {
      const rest = new URLSearchParams({ rest_route: route });
      for (const [key, value] of params) rest.append(key, value);
      return `${this.site}/?${rest}`;
    }
    const search = params.toString();
    return `${this.site}/wp-json${route}${search ? `?${search}` : ''}`;
  }

  async #send(request: WordPressRequest, plain: boolean): Promise<WordPressAnswer<unknown>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: this.#authorization,
    };
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const response = await platformFetch(this.url(request.route, request.query, plain), {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    return { status: response.status, body: await readJson(response), headers: response.headers };
  }
}

/** WordPress escapes `&`, `<`, `>` and quotes in names it returns (terms, titles in lists). */
export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#0?39|#8217|#8211|#8212);/g, (_, entity: string) => {
    switch (entity) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case '#8217':
        return '\u2019';
      case '#8211':
        return '\u2013';
      case '#8212':
        return '\u2014';
      default:
        return "'";
    }
  });
}
