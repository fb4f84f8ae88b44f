import { isPlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { MatrixApi } from './api.ts';

/** What the account's homeserver told us, kept per server for a while (`serverCacheTtlMs`). */
export interface HomeserverInfo {
  /** Where the client API lives: the URL given, or its `.well-known/matrix/client` delegation. */
  base: string;
  /** Spec versions from `/_matrix/client/versions` (`v1.11`, …); empty when it did not say. */
  versions: readonly string[];
  /** Learnt from the first upload: whether `/_matrix/client/v1/media/upload` is served. */
  clientUpload?: boolean;
}

interface WellKnown {
  'm.homeserver'?: { base_url?: unknown };
}

/** Whether the server speaks spec v1.11 or later (authenticated media endpoints). */
export function supportsAuthenticatedMedia(versions: readonly string[]): boolean {
  return versions.some((v) => {
    const match = /^v1\.(\d+)$/.exec(v);
    return match !== null && Number(match[1]) >= 11;
  });
}

/**
 * Discovery and spec versions per homeserver URL. A server name such as `https://example.org`
 * usually delegates its client API (`.well-known/matrix/client` → `m.homeserver.base_url`); a
 * server that answers `/_matrix/client/versions` itself needs no delegation.
 */
export class HomeserverCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { info: Promise<HomeserverInfo>; expires: number }>();

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  async get(
    url: string,
    signal: AbortSignal | undefined,
    fetch: FetchLike | undefined,
  ): Promise<HomeserverInfo> {
    const origin = homeserverBase(url);
    const now = Date.now();
    let entry = this.#entries.get(origin);
    if (!entry || entry.expires <= now) {
      entry = { info: discover(origin, signal, fetch), expires: now + this.#ttlMs };
      this.#entries.set(origin, entry);
      const current = entry;
      // A failed discovery is not kept, and one that learnt nothing only briefly.
      current.info.then(
        (info) => {
          if (info.versions.length === 0) current.expires = Math.min(current.expires, Date.now() + 60_000);
        },
        () => {
          if (this.#entries.get(origin) === current) this.#entries.delete(origin);
        },
      );
    }
    return entry.info;
  }
}

/** The URL as given, without a trailing slash, query or fragment. */
export function homeserverBase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

async function discover(
  given: string,
  signal: AbortSignal | undefined,
  fetch: FetchLike | undefined,
): Promise<HomeserverInfo> {
  const direct = await versionsAt(given, signal, fetch).catch((error: unknown) => {
    // A host the address policy refuses is refused for its .well-known too: say so at once.
    if (isPlatformError(error) && error.code === 'target_unreachable' && error.status === undefined)
      throw error;
    return undefined;
  });
  if (direct) return { base: given, versions: direct };
  const origin = new URL(given).origin;
  const wellKnown = await new MatrixApi(origin, '', signal, fetch)
    .request<WellKnown>({
      method: 'GET',
      path: '/.well-known/matrix/client',
      operation: 'server',
      authenticated: false,
    })
    .catch(() => undefined);
  const delegated = wellKnown?.['m.homeserver']?.base_url;
  if (typeof delegated === 'string' && /^https?:\/\/\S+$/.test(delegated)) {
    const base = homeserverBase(delegated);
    if (base !== given) {
      const versions = await versionsAt(base, signal, fetch).catch(() => undefined);
      if (versions) return { base, versions };
    }
  }
  // Neither answered: calls go to the URL as given, and their own errors say why.
  return { base: given, versions: [] };
}

async function versionsAt(
  base: string,
  signal: AbortSignal | undefined,
  fetch: FetchLike | undefined,
): Promise<string[]> {
  const answer = await new MatrixApi(base, '', signal, fetch).request<{ versions?: unknown }>({
    method: 'GET',
    path: '/_matrix/client/versions',
    operation: 'server',
    authenticated: false,
  });
  if (!Array.isArray(answer.versions)) return [];
  return answer.versions.filter((v): v is string => typeof v === 'string' && v.length <= 20);
}
