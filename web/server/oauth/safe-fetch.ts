import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Outbound fetches of user-supplied URLs (media from a URL, OAuth client metadata documents).
 * https only; the host is resolved here and every address must be public; the connection is
 * pinned to the checked address (no second DNS answer can swap in an internal one); redirects are
 * followed by hand and each hop is checked again.
 */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const blocked = new BlockList();
const v4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const v6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'IETF protocol assignments (Teredo, ORCHID)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique-local (includes fd00:ec2::254 metadata)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];
const reasons: { list: BlockList; reason: string; type: 'ipv4' | 'ipv6' }[] = [];
for (const [net, prefix, reason] of v4) {
  blocked.addSubnet(net, prefix, 'ipv4');
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv4');
  reasons.push({ list, reason, type: 'ipv4' });
}
for (const [net, prefix, reason] of v6) {
  blocked.addSubnet(net, prefix, 'ipv6');
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  reasons.push({ list, reason, type: 'ipv6' });
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:yyyy). */
function mappedV4(address: string): string | undefined {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address.replace(/^\[|\]$/g, ''));
  if (!m || !address.includes(':')) return undefined;
  const tail = m[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return undefined;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why an address may not be fetched, or undefined when it is a public unicast address. */
export function blockedReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const inner = mappedV4(bare);
    if (inner) return blockedReason(inner) ?? undefined;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!blocked.check(bare, type)) return undefined;
  return reasons.find((r) => r.type === type && r.list.check(bare, type))?.reason ?? 'not public';
}

export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const inner = isIP(bare) === 6 ? (mappedV4(bare) ?? bare) : bare;
  return isIP(inner) === 4 ? inner.startsWith('127.') : inner === '::1';
}

export interface SafeFetchOptions {
  maxBytes: number;
  maxRedirects?: number;
  timeoutMs?: number;
  accept?: string;
  /**
   * Tests only (env POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK=true): also allow http:// and loopback
   * addresses, so a local fake can serve the happy path. Off by default.
   */
  allowLoopback?: boolean;
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export interface SafeResponse {
  url: string;
  status: number;
  contentType: string | undefined;
  contentLength: number | undefined;
  body: IncomingMessage;
}

async function checkedTarget(
  raw: string,
  options: SafeFetchOptions,
): Promise<{ url: URL; address: string; family: number }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('invalid_url', 'The URL is not valid');
  }
  const httpAllowed = options.allowLoopback === true;
  if (url.protocol !== 'https:' && !(httpAllowed && url.protocol === 'http:'))
    throw new UnsafeUrlError('url_not_allowed', 'Only https:// URLs can be fetched');
  if (url.username || url.password)
    throw new UnsafeUrlError('url_not_allowed', 'URLs with credentials are not allowed');
  if (url.port && !options.allowLoopback && url.port !== '443')
    throw new UnsafeUrlError('url_not_allowed', 'Only the default https port (443) is allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolve =
    options.resolve ??
    ((h: string) =>
      dnsLookup(h, { all: true, verbatim: true }) as Promise<{ address: string; family: number }[]>);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnsafeUrlError('host_not_found', `The host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new UnsafeUrlError('host_not_found', `The host ${host} has no addresses`);
  for (const a of addresses) {
    const reason = blockedReason(a.address);
    if (reason && !(options.allowLoopback && isLoopbackAddress(a.address))) {
      throw new UnsafeUrlError(
        'url_not_allowed',
        `The host resolves to a ${reason} address, which cannot be fetched`,
      );
    }
  }
  return { url, address: addresses[0]!.address, family: addresses[0]!.family };
}

function requestOnce(
  target: { url: URL; address: string; family: number },
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { url, address, family } = target;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'GET',
        signal,
        headers: { accept: options.accept ?? '*/*', 'user-agent': 'Postwave/1.0 (+media fetch)' },
        // Pin the connection to the address we checked; TLS still verifies the certificate for the host name.
        lookup: ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (opts?.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        }) as never,
        agent: false,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/** GET with the guard; the caller consumes (or destroys) `body`. */
export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  let current = raw;
  for (let hop = 0; ; hop++) {
    const target = await checkedTarget(current, options);
    let response: IncomingMessage;
    try {
      response = await requestOnce(target, options, signal);
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw error;
      throw new UnsafeUrlError('fetch_failed', `Fetching the URL failed: ${(error as Error).message}`);
    }
    const status = response.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status)) {
      response.resume();
      const location = response.headers.location;
      if (!location) throw new UnsafeUrlError('fetch_failed', `A ${status} redirect without a Location`);
      if (hop >= (options.maxRedirects ?? 5)) throw new UnsafeUrlError('fetch_failed', 'Too many redirects');
      current = new URL(location, target.url).toString();
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new UnsafeUrlError('fetch_failed', `The URL answered ${status}`);
    }
    const length = response.headers['content-length'];
    const contentLength = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    if (contentLength !== undefined && contentLength > options.maxBytes) {
      response.destroy();
      throw new UnsafeUrlError('too_large', `The file is larger than the limit of ${options.maxBytes} bytes`);
    }
    return {
      url: target.url.toString(),
      status,
      contentType: response.headers['content-type'],
      contentLength,
      body: response,
    };
  }
}

/** Reads a small body (e.g. a JSON document) up to `maxBytes`. */
export async function readSmallBody(body: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      body.destroy();
      throw new UnsafeUrlError('too_large', 'The document is too large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
