import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a user-chosen URL may reach: public unicast only. Loopback, private, link-local
 * (cloud metadata at 169.254.169.254 and fd00:ec2::254), CGNAT, multicast, documentation and the
 * other special ranges are refused unless the operator lists the host in `ALLOW_PRIVATE_HOSTS`.
 */
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

/** One `ALLOW_PRIVATE_HOSTS` entry: a host name or IP, with or without a port. */
export interface AllowedHost {
  host: string;
  port: string | undefined;
}

/**
 * Parses `ALLOW_PRIVATE_HOSTS` (comma-separated `host[:port]`, IPv6 in brackets: `[::1]:8080`).
 * Throws RangeError naming the bad entry.
 */
export function parseAllowedPrivateHosts(value: string | undefined): AllowedHost[] {
  if (!value) return [];
  const entries: AllowedHost[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const m =
      /^(?:\[([0-9a-f:.]+)\]|([^\s:/[\]]+))(?::(\d{1,5}))?$/.exec(entry) ?? /^([0-9a-f:]+)$/.exec(entry);
    if (!m) throw new RangeError(`ALLOW_PRIVATE_HOSTS: "${raw.trim()}" is not a host or host:port`);
    const host = (m[1] ?? m[2])!;
    const port = m[3];
    if (port !== undefined && Number(port) > 65_535)
      throw new RangeError(`ALLOW_PRIVATE_HOSTS: "${raw.trim()}" has a port over 65535`);
    entries.push({ host, port });
  }
  return entries;
}

/** Whether the operator allowed this host name or address (and port) to be private. */
export function isAllowedPrivate(
  allowed: readonly AllowedHost[],
  names: readonly string[],
  port: string,
): boolean {
  const lowered = names.map((n) => n.replace(/^\[|\]$/g, '').toLowerCase());
  return allowed.some((a) => lowered.includes(a.host) && (a.port === undefined || a.port === port));
}
