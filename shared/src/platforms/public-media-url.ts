import type { MediaInfo } from '../media/media-file.ts';
import type { ValidationIssue } from '../schemas/results.ts';

/**
 * Whether a platform's servers could fetch this URL: not loopback, private, link-local, CGNAT,
 * `localhost` or a single-label / `.local` / `.internal` name. Browser-safe (no DNS): a public
 * name that resolves privately is not caught, which is fine for a warning.
 */
export function isPublicMediaUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) return isPublicIpv6(host.slice(1, -1));
  const ipv4 = host.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (ipv4) return isPublicIpv4(ipv4.slice(1).map(Number));
  if (!host.includes('.')) return false;
  return !/(^|\.)(localhost|local|internal|lan|home\.arpa)\.?$/.test(host);
}

function isPublicIpv4([a = 0, b = 0]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

function isPublicIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return false;
  const mapped = host.match(/^::ffff:(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (mapped) return isPublicIpv4(mapped.slice(1).map(Number));
  // WHATWG URL writes IPv4-mapped addresses in hex: ::ffff:7f00:1 is 127.0.0.1.
  const hex = host.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const high = Number.parseInt(hex[1]!, 16);
    const low = Number.parseInt(hex[2]!, 16);
    return isPublicIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return !/^(fc|fd|fe[89ab]|ff)/.test(host);
}

/**
 * The `media_url_not_public` warning (docs/platforms/README.md) for platforms that fetch media from
 * our public URL: the post still goes, but the platform will most likely fail to fetch it.
 */
export function mediaUrlWarnings(
  media: readonly MediaInfo[],
  platformName: string,
  fetchedByUrl: (file: MediaInfo) => boolean = () => true,
): ValidationIssue[] {
  const warnings: ValidationIssue[] = [];
  for (const [index, file] of media.entries()) {
    if (!fetchedByUrl(file) || isPublicMediaUrl(file.url)) continue;
    warnings.push({
      code: 'media_url_not_public',
      message: `${platformName} fetches media from its URL, but ${hostOf(file.url)} is not reachable from the internet: set SERVICE_PUBLIC_URL (or APP_URL, or the object-storage public URL) to a public address`,
      path: `media[${index}]`,
    });
  }
  return warnings;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the media URL';
  }
}
