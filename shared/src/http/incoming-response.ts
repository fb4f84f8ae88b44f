import type { IncomingMessage } from 'node:http';
import { rememberBufferedBody } from './capped-body.ts';

/**
 * A node:http reply as a fetch `Response`, for the two transports that speak node:http (the
 * keep-alive fetch for operator hosts and the SSRF-safe fetch for user-chosen ones): the same
 * headers, status and `url`/`redirected` fetch would give.
 */
export function responseOf(
  incoming: IncomingMessage,
  body: BodyInit | null,
  url: string,
  redirected: boolean,
): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value fetch would refuse: drop it rather than fail the whole reply.
    }
  }
  const status = incoming.statusCode ?? 502;
  const init = {
    // Response refuses statuses outside 200-599 (1xx here): a bad gateway, as fetch reports it.
    status: status < 200 || status > 599 ? 502 : status,
    statusText: incoming.statusMessage ?? '',
    headers,
  };
  const response = body instanceof Uint8Array ? new BufferedResponse(body, init) : new Response(body, init);
  Object.defineProperty(response, 'url', { value: url });
  Object.defineProperty(response, 'redirected', { value: redirected });
  if (body instanceof Uint8Array) rememberBufferedBody(response, body);
  return response;
}

/**
 * A reply the transport read in full. Its body (a web stream over a copy of the bytes, about 12 µs
 * per reply, bench/support/profile-dispatch.ts) is made only when something reads it through the
 * `Response`; `readBytesCapped` takes the bytes as they are and never does.
 */
class BufferedResponse extends Response {
  readonly #bytes: Uint8Array;
  readonly #init: ResponseInit;
  #withBody: Response | undefined;

  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
  }

  #full(): Response {
    this.#withBody ??= new Response(this.#bytes as Uint8Array<ArrayBuffer>, this.#init);
    return this.#withBody;
  }

  override get body() {
    return this.#full().body;
  }
  override get bodyUsed() {
    return this.#withBody?.bodyUsed ?? false;
  }
  override arrayBuffer() {
    return this.#full().arrayBuffer();
  }
  override blob() {
    return this.#full().blob();
  }
  override bytes() {
    return this.#full().bytes();
  }
  override formData() {
    return this.#full().formData();
  }
  override json() {
    return this.#full().json();
  }
  override text() {
    return this.#full().text();
  }
  override clone(): Response {
    const copy = this.#full().clone();
    Object.defineProperty(copy, 'url', { value: this.url });
    Object.defineProperty(copy, 'redirected', { value: this.redirected });
    return copy;
  }
}
