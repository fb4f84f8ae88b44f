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
 * Node answers an HTTP/1.1 request without a Host header with a bare, bodiless 400 before any
 * handler runs. Servers turn that check off (`requireHostHeader: false`) and call this first, so
 * the refusal is a problem like every other error (section B). True when it answered.
 */
export function answerMissingHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersionMajor !== 1 || request.httpVersionMinor < 1 || request.headers.host !== undefined)
    return false;
  const body = JSON.stringify(problem('invalid_request', 'The request has no Host header'));
  response.writeHead(400, {
    'Content-Type': problemContentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Security-Policy': apiContentSecurityPolicy,
    ...baselineSecurityHeaders,
    Connection: 'close',
  });
  response.end(body);
  return true;
}
