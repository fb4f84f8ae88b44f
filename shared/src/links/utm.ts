/**
 * UTM parameters appended to a link (contract section I, "Links"). Values may hold the
 * `{platform}` placeholder, replaced by the target's platform id, so one workspace setting says
 * `utm_source=x` on X and `utm_source=mastodon` on Mastodon.
 */
export interface UtmSettings {
  source?: string;
  medium?: string;
  campaign?: string;
}

const keys = ['source', 'medium', 'campaign'] as const;

/** A value with its placeholders filled in (`{platform}`). */
export function fillPlaceholders(value: string, platform: string): string {
  return value.replaceAll('{platform}', platform);
}

/**
 * The link with `utm_source`, `utm_medium` and `utm_campaign` appended where the settings give
 * them and the link does not already carry that key. The link's own text is kept byte for byte
 * (its other parameters are not re-encoded or reordered); only `&utm_…=…` is added before the
 * fragment. Anything but an absolute http(s) URL comes back unchanged. Applying it twice changes
 * nothing the second time.
 */
export function appendUtm(link: string, utm: UtmSettings | undefined, platform: string): string {
  if (!utm || !/^https?:\/\//i.test(link)) return link;
  let parsed: URL;
  try {
    parsed = new URL(link);
  } catch {
    return link;
  }
  const hashAt = link.indexOf('#');
  const beforeHash = hashAt === -1 ? link : link.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : link.slice(hashAt);
  const present = new Set([...parsed.searchParams.keys()].map((k) => k.toLowerCase()));
  const added: string[] = [];
  for (const key of keys) {
    const raw = utm[key];
    if (raw === undefined) continue;
    const value = fillPlaceholders(raw, platform).trim();
    if (!value || present.has(`utm_${key}`)) continue;
    added.push(`utm_${key}=${encodeURIComponent(value)}`);
  }
  if (added.length === 0) return link;
  const separator = !beforeHash.includes('?') ? '?' : /[?&]$/.test(beforeHash) ? '' : '&';
  return `${beforeHash}${separator}${added.join('&')}${hash}`;
}
