import { isPlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { MastodonApi } from './api.ts';
import { defaultInstanceLimits, type InstanceLimits } from './limits.ts';

export { defaultInstanceLimits, type InstanceLimits } from './limits.ts';

interface InstanceConfiguration {
  configuration?: {
    statuses?: {
      max_characters?: number;
      max_media_attachments?: number;
      characters_reserved_per_url?: number;
    };
    media_attachments?: {
      supported_mime_types?: string[];
      image_size_limit?: number;
      video_size_limit?: number;
      description_limit?: number;
    };
  };
}

export interface LimitsLookup {
  limits: InstanceLimits;
  /** False when the instance could not be asked and Mastodon's defaults stand in. */
  fromInstance: boolean;
}

/**
 * Instance limits per origin, read from `/api/v2/instance` (public, no token) and kept for a
 * while: they change when an admin reconfigures the server, which is rare.
 */
export class InstanceLimitsCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { limits: Promise<InstanceLimits>; expires: number }>();
  readonly #paths: readonly string[];
  readonly #defaults: InstanceLimits;
  readonly #platformName: string;

  /**
   * `paths`: where the instance describes itself, tried in order while the answer is 404 (Mastodon:
   * v2, then v1 for servers before 4.0; Pixelfed: v1). `defaults`: what the server leaves unsaid.
   */
  constructor(
    ttlMs: number,
    options: { paths?: readonly string[]; defaults?: InstanceLimits; platformName?: string } = {},
  ) {
    this.#ttlMs = ttlMs;
    this.#paths = options.paths ?? ['/api/v2/instance', '/api/v1/instance'];
    this.#defaults = options.defaults ?? defaultInstanceLimits;
    this.#platformName = options.platformName ?? 'Mastodon';
  }

  async get(origin: string, signal?: AbortSignal, fetch?: FetchLike): Promise<LimitsLookup> {
    const now = Date.now();
    let entry = this.#entries.get(origin);
    if (!entry || entry.expires <= now) {
      entry = {
        limits: fetchLimits(
          new MastodonApi(origin, undefined, signal, fetch, this.#platformName),
          this.#paths,
          this.#defaults,
        ),
        expires: now + this.#ttlMs,
      };
      this.#entries.set(origin, entry);
    }
    try {
      return { limits: await entry.limits, fromInstance: true };
    } catch (error) {
      // Not cached: the next post asks again.
      if (this.#entries.get(origin) === entry) this.#entries.delete(origin);
      if (!isPlatformError(error)) throw error;
      return { limits: this.#defaults, fromInstance: false };
    }
  }
}

async function fetchLimits(
  api: MastodonApi,
  paths: readonly string[],
  d: InstanceLimits,
): Promise<InstanceLimits> {
  let answer: { body: InstanceConfiguration } | undefined;
  for (const [index, path] of paths.entries()) {
    try {
      answer = await api.request<InstanceConfiguration>({
        method: 'GET',
        path,
        operation: 'instance',
        timeoutMs: 10_000,
      });
      break;
    } catch (error) {
      // Servers before Mastodon 4.0 only have v1, which carries the same `configuration`.
      if (!(isPlatformError(error) && error.status === 404 && index < paths.length - 1)) throw error;
    }
  }
  const statuses = answer?.body.configuration?.statuses;
  const media = answer?.body.configuration?.media_attachments;
  return {
    maxCharacters: positive(statuses?.max_characters) ?? d.maxCharacters,
    maxMediaAttachments: positive(statuses?.max_media_attachments) ?? d.maxMediaAttachments,
    charactersReservedPerUrl: positive(statuses?.characters_reserved_per_url) ?? d.charactersReservedPerUrl,
    imageSizeLimit: positive(media?.image_size_limit) ?? d.imageSizeLimit,
    videoSizeLimit: positive(media?.video_size_limit) ?? d.videoSizeLimit,
    descriptionLimit: positive(media?.description_limit) ?? d.descriptionLimit,
    supportedMimeTypes: Array.isArray(media?.supported_mime_types)
      ? media.supported_mime_types.filter((t): t is string => typeof t === 'string' && t.length <= 100)
      : d.supportedMimeTypes,
  };
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
