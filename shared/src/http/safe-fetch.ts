import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { type AllowedHost, blockedReason, isAllowedPrivate } from './address-policy.ts';
import type { FetchLike } from './fetch-like.ts';
import { responseOf } from './incoming-response.ts';

/**
 * Why a user-chosen URL was not fetched. Nothing was sent to the host (or, for `fetch_failed`,
 * the connection failed). Messages never contain anything the remote host said.
 */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
  readonly code: 'invalid_url' | 'url_not_allowed' | 'host_not_found' | 'fetch_failed';
  constructor(code: UnsafeUrlError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface SafeFetchOptions {
  /**
   * Hosts the operator allows although they are private (`ALLOW_PRIVATE_HOSTS`): for those, http,
   * any port (or the listed one) and private addresses are allowed.
   */
  allowPrivateHosts?: readonly AllowedHost[];
  /** Hops followed (each re-checked) before giving up; default 5. */
  maxRedirects?: number;
  /** For tests: answers DNS instead of the system resolver. */
  resolve?: Resolver;
  userAgent?: string;
}

const systemResolve: Resolver = (host) =>
  dnsLookup(host, { all: true, verbatim: true }) as Promise<{ address: string; family: number }[]>;

interface Target {
  url: URL;
  address: string;
  family: number;
}

/** Checks a URL against the policy and resolves it once; the connection then uses this address only. */
export async function checkUrl(raw: string | URL, options: SafeFetchOptions = {}): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('invalid_url', 'The URL is not valid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UnsafeUrlError('url_not_allowed', 'Only https:// URLs can be fetched');
  if (url.username || url.password)
    throw new UnsafeUrlError('url_not_allowed', 'URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const allowList = options.allowPrivateHosts ?? [];
  const hostAllowed = isAllowedPrivate(allowList, [host], port);
  // Refuse what no allow-list entry can admit before asking DNS (plain http, other ports).
  const addressEntryMayAdmit = allowList.some(
    (a) => isIP(a.host) && (a.port === undefined || a.port === port),
  );
  if (!hostAllowed && !addressEntryMayAdmit && !isIP(host)) publicOnly(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new UnsafeUrlError('host_not_found', `The host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new UnsafeUrlError('host_not_found', `The host ${host} has no addresses`);
  let allowed = hostAllowed;
  for (const a of addresses) {
    const reason = blockedReason(a.address);
    if (!reason) continue;
    if (hostAllowed || isAllowedPrivate(allowList, [a.address], port)) {
      allowed = true;
      continue;
    }
    throw new UnsafeUrlError(
      'url_not_allowed',
      `${host} is a ${reason} address, which user-chosen URLs may not reach (an operator can allow it with ALLOW_PRIVATE_HOSTS)`,
    );
  }
  if (!allowed) publicOnly(url);
  return { url, address: addresses[0]!.address, family: addresses[0]!.family };
}

/** Public hosts: https on the default port only, so the fetch cannot probe other services. */
function publicOnly(url: URL): void {
  const hint = '(an operator can allow a private host with ALLOW_PRIVATE_HOSTS)';
  if (url.protocol !== 'https:')
    throw new UnsafeUrlError('url_not_allowed', `Only https:// URLs can be fetched ${hint}`);
  if (url.port && url.port !== '443')
    throw new UnsafeUrlError('url_not_allowed', `Only the default https port (443) is allowed ${hint}`);
}

function send(
  target: Target,
  method: string,
  headers: Headers,
  body: Uint8Array | undefined,
  signal: AbortSignal | undefined,
  userAgent: string,
): Promise<IncomingMessage> {
  const { url, address, family } = target;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  outgoing['user-agent'] ??= userAgent;
  if (body) outgoing['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: outgoing,
        ...(signal ? { signal } : {}),
        // Pin the connection to the checked address; TLS still verifies the certificate for the name.
        lookup: ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (opts?.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        }) as never,
        agent: false,
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

function toResponse(incoming: IncomingMessage, url: URL, method: string, redirected: boolean): Response {
  const status = incoming.statusCode ?? 502;
  const nullBody = method === 'HEAD' || [101, 103, 204, 205, 304].includes(status);
  if (nullBody) incoming.resume();
  const body = nullBody ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  return responseOf(incoming, body, url.toString(), redirected);
}

/**
 * A `fetch` for URLs a user chose: every hop is checked against the address policy, the
 * connection is pinned to the resolved address (no DNS rebinding between check and connect),
 * and redirects are followed by hand and checked again. Refusals throw UnsafeUrlError before
 * anything is sent. Request bodies are buffered (API calls and uploads of known size).
 */
export function createSafeFetch(options: SafeFetchOptions = {}): FetchLike {
  const maxRedirects = options.maxRedirects ?? 5;
  const userAgent = options.userAgent ?? 'Postwave/1.0';
  const safeFetch: FetchLike = async (input, init = {}) => {
    let method = (init.method ?? 'GET').toUpperCase();
    let headers = new Headers(init.headers);
    let body: Uint8Array | undefined;
    if (init.body !== undefined && init.body !== null) {
      // Request normalises every BodyInit (FormData, URLSearchParams, Blob, string) with its content type.
      const prepared = new Request('http://body.invalid/', {
        method: 'POST',
        body: init.body,
        headers,
        ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
      headers = new Headers(prepared.headers);
      body = new Uint8Array(await prepared.arrayBuffer());
    }
    let current: string | URL = input;
    for (let hop = 0; ; hop++) {
      const target = await checkUrl(current, options);
      let incoming: IncomingMessage;
      try {
        incoming = await send(target, method, headers, body, init.signal ?? undefined, userAgent);
      } catch (error) {
        if (init.signal?.aborted) throw init.signal.reason ?? error;
        throw new UnsafeUrlError('fetch_failed', `Could not connect to ${target.url.host}`, { cause: error });
      }
      const status = incoming.statusCode ?? 0;
      const location = incoming.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location && init.redirect !== 'manual') {
        incoming.resume();
        if (init.redirect === 'error') throw new UnsafeUrlError('fetch_failed', 'The URL redirected');
        if (hop >= maxRedirects) throw new UnsafeUrlError('fetch_failed', 'Too many redirects');
        let next: URL;
        try {
          next = new URL(location, target.url);
        } catch {
          throw new UnsafeUrlError('fetch_failed', 'The URL redirected to an invalid location');
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          headers.delete('content-type');
        }
        // Credentials never follow a redirect to another origin.
        if (next.origin !== target.url.origin) {
          headers.delete('authorization');
          headers.delete('cookie');
        }
        current = next;
        continue;
      }
      return toResponse(incoming, target.url, method, hop > 0);
    }
  };
  policies.set(safeFetch, options);
  return safeFetch;
}

let publicHosts: FetchLike | undefined;
/** The SSRF-safe fetch with the default policy (public addresses only), made once. */
export function publicHostsFetch(): FetchLike {
  publicHosts ??= createSafeFetch();
  return publicHosts;
}

/** The policy each safe fetch was built with, so other protocols to the same hosts follow it. */
const policies = new WeakMap<FetchLike, SafeFetchOptions>();

/** A wrapper of a safe fetch (one that notes it was called, say) keeping that fetch's address policy. */
export function keepingPolicyOf(original: FetchLike, wrapper: FetchLike): FetchLike {
  const policy = policies.get(original);
  if (policy) policies.set(wrapper, policy);
  return wrapper;
}

/**
 * The address policy a fetch for user-chosen hosts applies, for connections that are not HTTP
 * requests (a Nostr relay's WebSocket): the safe fetch's own options, or the strictest policy for
 * any other fetch a caller passed for such hosts (a wrapper must not open a hole). Undefined
 * `fetch`: the hosts are the operator's, and no policy applies.
 */
export function addressPolicyOf(fetch: FetchLike | undefined): SafeFetchOptions | undefined {
  if (!fetch) return undefined;
  return policies.get(fetch) ?? {};
}
