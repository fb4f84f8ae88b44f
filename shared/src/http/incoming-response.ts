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
  const response = new Response(body, {
    // Response refuses statuses outside 200-599 (1xx here): a bad gateway, as fetch reports it.
    status: status < 200 || status > 599 ? 502 : status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
  Object.defineProperty(response, 'url', { value: url });
  Object.defineProperty(response, 'redirected', { value: redirected });
  if (body instanceof Uint8Array) rememberBufferedBody(response, body);
  return response;
}
