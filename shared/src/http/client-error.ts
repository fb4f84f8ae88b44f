import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problem, problemContentType } from '../problems.ts';
import { apiContentSecurityPolicy, baselineSecurityHeaders } from './security-headers.ts';

/**
 * Node's answer to a request it cannot parse (a `clientError`), as the contract wants it (section
 * D: "oversize headers and the like are 400 `invalid_request`"): a problem body instead of Node's
 * bare 431 or 400. A connection reset, or one whose answer has already begun, is only closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || answering || !error.code?.startsWith('HPE_')) {
    socket.destroy();
    return;
  }
  const detail =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large'
      : 'The request is not valid HTTP';
  const body = JSON.stringify(problem('invalid_request', detail));
  const headers = {
    'Content-Type': problemContentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Security-Policy': apiContentSecurityPolicy,
    ...baselineSecurityHeaders,
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 400 Bad Request\r\n${head}\r\n${body}`);
}

/**
 * What both servers settle before routing a request Node parsed, so the refusals are problems like
 * every other error (section B), never Node's or the framework's own answer. True when it answered.
 * - HTTP/1.1 without `Host`: Node would answer a bare, bodiless 400 before any handler runs
 *   (servers turn that check off with `requireHostHeader: false` and call this first).
 * - An absolute-form target (`GET http://host/path`, as sent to a proxy): an origin server takes
 *   its host from the target and ignores `Host` (RFC 9112, 3.2.2), so it is rewritten to the
 *   origin form with that host. Next.js answered it with a 308 to the target's URL.
 * - The asterisk form (`OPTIONS *`) asks about the server: 204 with `Allow`. Next.js answered
 *   it, and any other method with it, with a 500; any other method is 400.
 */
export function answerBeforeRouting(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersionMajor === 1 && request.httpVersionMinor >= 1 && request.headers.host === undefined)
    return answerProblem(response, 400, 'The request has no Host header');
  const target = request.url ?? '';
  if (target.startsWith('/')) return false;
  if (target === '*') {
    if (request.method !== 'OPTIONS')
      return answerProblem(response, 400, 'The request target * is only for OPTIONS');
    response.writeHead(204, { Allow: serverMethods, ...baselineSecurityHeaders });
    response.end();
    return true;
  }
  const absolute = URL.canParse(target) ? new URL(target) : undefined;
  if (!absolute || !['http:', 'https:'].includes(absolute.protocol) || absolute.host === '')
    return answerProblem(response, 400, 'The request target is not a path or an http(s) URL');
  request.headers.host = absolute.host;
  request.url = `${absolute.pathname}${absolute.search}`;
  return false;
}

/** The methods either server answers somewhere (`OPTIONS *`). */
const serverMethods = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

function answerProblem(response: ServerResponse, status: number, detail: string): true {
  const body = JSON.stringify(problem('invalid_request', detail));
  response.writeHead(status, {
    'Content-Type': problemContentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Security-Policy': apiContentSecurityPolicy,
    ...baselineSecurityHeaders,
    Connection: 'close',
  });
  response.end(body);
  return true;
}
