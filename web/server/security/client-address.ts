import { isIP } from 'node:net';

/**
 * The header our own server hook writes on every incoming request (server/security/peer-hook.ts):
 * the client's X-Forwarded-For chain followed by the address of the TCP peer. Any value a client
 * sends under this name is overwritten, so its last entry is always the real peer.
 */
export const forwardedChainHeader = 'x-postwave-forwarded-chain';

function normalize(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed.toLowerCase();
}

/**
 * The client address, trusting `trustedHops` proxies in front of us (TRUST_PROXY): the chain is
 * read from the right (the TCP peer first), and the entry `trustedHops` steps in is the client.
 * With 0 (the default) X-Forwarded-For is ignored and the TCP peer is the client; a chain shorter
 * than the hop count yields its leftmost entry. Malformed entries end the walk there.
 */
export function clientAddressFromChain(chain: string | null, trustedHops: number): string {
  if (!chain) return 'unknown';
  const entries = chain
    .split(',')
    .map(normalize)
    .filter((e) => e !== '');
  let address = 'unknown';
  for (let i = entries.length - 1, hop = 0; i >= 0 && hop <= trustedHops; i--, hop++) {
    const entry = entries[i]!;
    if (isIP(entry) === 0) break;
    address = entry;
  }
  return address;
}

/** The client address of a request as our server hook recorded it (see clientAddressFromChain). */
export function clientAddress(request: Request, trustedHops: number): string {
  return clientAddressFromChain(request.headers.get(forwardedChainHeader), trustedHops);
}
