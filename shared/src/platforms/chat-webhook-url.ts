import { isPublicMediaUrl } from './public-media-url.ts';

/**
 * A webhook URL as a URL object, or undefined: http(s), no user info, no fragment; plain http
 * only for hosts that are not public (a relay on the operator's network, test fakes), which the
 * Scheduler reaches only when ALLOW_PRIVATE_HOSTS names them. Browser-safe.
 */
export function webhookUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.hash) return undefined;
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && !isPublicMediaUrl(url.toString()) ? url : undefined;
}
