import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';
import { checkUrl, type SafeFetchOptions, UnsafeUrlError } from './safe-fetch.ts';

export interface SocketOptions {
  /**
   * The address policy for a host a user chose (see `addressPolicyOf`): the URL is checked and
   * resolved once, and the socket connects to that address only. Undefined: an operator-set host,
   * connected as is.
   */
  policy?: SafeFetchOptions | undefined;
  /** Gives up connecting (and closes an open socket) when it aborts. */
  signal?: AbortSignal | undefined;
  /** Largest message accepted from the server; bigger ones close the socket. Default 1 MiB. */
  maxPayloadBytes?: number;
  userAgent?: string;
  /**
   * Receives every message from the start, including those a server sends as soon as the
   * handshake completes (a relay's NIP-42 `AUTH` challenge), which a listener added after the
   * promise resolves could miss.
   */
  onMessage?: (data: WebSocket.RawData) => void;
}

const defaultMaxPayloadBytes = 1024 * 1024;

/**
 * Opens a WebSocket (`ws://` or `wss://`) under the same SSRF rules as `createSafeFetch`: with a
 * policy, the host must resolve to public addresses (or be listed in `ALLOW_PRIVATE_HOSTS`), plain
 * `ws://` and other ports only for allowed hosts, and the connection is pinned to the address that
 * was checked (no DNS rebinding between check and connect) while the Host header and TLS SNI keep
 * the name. Redirects are never followed. Resolves once the handshake completed; a refusal throws
 * UnsafeUrlError before anything is sent.
 */
export async function openSocket(raw: string, options: SocketOptions = {}): Promise<WebSocket> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('invalid_url', 'The URL is not valid');
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:')
    throw new UnsafeUrlError('url_not_allowed', 'Only wss:// and ws:// URLs can be opened as WebSockets');
  let lookup: LookupFunction | undefined;
  if (options.policy) {
    // The same policy as HTTP: wss is checked as https, ws as http, on the same host and port.
    const asHttp = new URL(url);
    asHttp.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
    const { address, family } = await checkUrl(asHttp, options.policy);
    lookup = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (opts?.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    }) as LookupFunction;
  }
  options.signal?.throwIfAborted();
  const socket = new WebSocket(url, {
    followRedirects: false,
    maxPayload: options.maxPayloadBytes ?? defaultMaxPayloadBytes,
    perMessageDeflate: false,
    headers: { 'user-agent': options.userAgent ?? 'Postwave/1.0' },
    ...(lookup ? { lookup } : {}),
  });
  if (options.onMessage) socket.on('message', options.onMessage);
  return new Promise<WebSocket>((resolve, reject) => {
    const onAbort = () => {
      socket.terminate();
      reject(options.signal?.reason ?? new Error('aborted'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      socket.terminate();
      reject(new UnsafeUrlError('fetch_failed', `Could not connect to ${url.host}`, { cause: error }));
    });
  });
}
