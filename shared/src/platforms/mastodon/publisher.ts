import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import type { AccountMetricName } from '../manifest.ts';
import type {
  AccountProfile,
  MetricsTarget,
  PlatformAccount,
  PlatformCallContext,
  PostContent,
  PostMetricsResult,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationContext,
  ValidationOutcome,
} from '../types.ts';
import { verifiedProfile } from './account.ts';
import { MastodonApi } from './api.ts';
import type { MastodonConfig } from './config.ts';
import { InstanceLimitsCache } from './instance.ts';
import { mastodonManifest } from './manifest.ts';
import { uploadMedia } from './media.ts';
import { accountFollowers, statusMetrics } from './metrics.ts';
import {
  instanceOrigin,
  type MastodonCredentials,
  type MastodonOptions,
  mastodonCredentialsSchema,
  mastodonOptionsSchema,
} from './options.ts';
import { validateMastodonPost } from './validate.ts';

interface Status {
  id: string;
  url: string | null;
  uri: string;
}

/** Publishes to any Mastodon server with an access token: upload media, wait for processing, post a status. */
export class MastodonPublisher implements Publisher<MastodonOptions> {
  readonly id = mastodonManifest.id;
  readonly displayName = mastodonManifest.name;
  readonly optionsSchema = mastodonOptionsSchema;
  readonly credentialsSchema = mastodonCredentialsSchema;
  readonly concurrency: number;
  /** Mastodon answers a repeated `Idempotency-Key` (kept an hour) with the first status. */
  readonly dedupe = 'idempotent-resend' as const;
  readonly #config: MastodonConfig;
  readonly #limits: InstanceLimitsCache;

  constructor(config: MastodonConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
    this.#limits = new InstanceLimitsCache(config.instanceCacheTtlMs);
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: MastodonOptions,
    context?: ValidationContext,
  ): Promise<ValidationOutcome> {
    const parsed = mastodonCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      return {
        errors: [
          {
            code: 'credentials_invalid',
            message: credentialsProblem(parsed.error.issues),
            path: 'credentials',
          },
        ],
        warnings: [],
      };
    }
    const { limits, fromInstance } = await this.#limits.get(
      instanceOrigin(parsed.data.instanceUrl),
      undefined,
      context?.accountHostFetch,
    );
    const outcome = validateMastodonPost(post, media, options, limits);
    if (!fromInstance) {
      outcome.warnings.push({
        code: 'instance_limits_unknown',
        message: "Could not read this Mastodon server's limits; checked against Mastodon's defaults",
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: MastodonOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const mediaIds: string[] = [];
    // In order, one at a time: attachment order is the order of media_ids, and instances throttle uploads.
    for (const [index, file] of media.entries()) {
      mediaIds.push(
        // The media's own `altText` (docs/composer-fields.md) wins over the older per-post `altTexts` option.
        await uploadMedia(api, file, file.altText ?? options.altTexts?.[index], {
          timeoutMs: this.#config.mediaTimeoutMs,
          firstIntervalMs: this.#config.mediaPollIntervalMs,
          signal: context.signal,
        }),
      );
    }
    const { body: status } = await api.request<Status>({
      method: 'POST',
      path: '/api/v1/statuses',
      operation: context.replyTo ? 'reply' : 'status',
      // Mastodon keeps the key for an hour per account: a retry gets the first status back instead of a
      // second post. A thread part or reply has its own key, so it dedupes the same way.
      headers: { 'idempotency-key': context.idempotencyKey },
      json: {
        status: post.message,
        ...(context.replyTo ? { in_reply_to_id: context.replyTo.parent.platformPostId } : {}),
        ...(mediaIds.length > 0 ? { media_ids: mediaIds } : {}),
        ...(options.visibility ? { visibility: options.visibility } : {}),
        ...(options.spoilerText ? { spoiler_text: options.spoilerText } : {}),
        ...(options.sensitive !== undefined ? { sensitive: options.sensitive } : {}),
        ...(options.language ? { language: options.language } : {}),
      },
    });
    if (!status.id) throw new PlatformError('platform_unavailable', 'Mastodon answered without a status id');
    return { platformPostId: status.id, url: status.url ?? status.uri };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    return verifiedProfile(this.#api(account, context?.signal, context?.accountHostFetch));
  }

  /** Contract section H: favourites, replies and boosts of each status. */
  metrics(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>> {
    return statusMetrics(this.#api(account, context.signal, context.accountHostFetch), targets);
  }

  accountMetrics(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>> {
    return accountFollowers(this.#api(account, context.signal, context.accountHostFetch));
  }

  #api(account: PlatformAccount, signal: AbortSignal | undefined, fetch?: FetchLike): MastodonApi {
    const parsed = mastodonCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', credentialsProblem(parsed.error.issues));
    const credentials: MastodonCredentials = parsed.data;
    return new MastodonApi(instanceOrigin(credentials.instanceUrl), credentials.accessToken, signal, fetch);
  }
}

function credentialsProblem(issues: readonly { path: readonly PropertyKey[] }[]): string {
  return `Mastodon credentials need a valid ${issues.map((i) => i.path.map(String).join('.')).join(', ')}`;
}
