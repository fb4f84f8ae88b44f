import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import type { AccountMetricName } from '../manifest.ts';
import { verifiedAccount, verifiedProfile } from '../mastodon/account.ts';
import { MastodonApi } from '../mastodon/api.ts';
import { InstanceLimitsCache } from '../mastodon/instance.ts';
import { uploadMedia } from '../mastodon/media.ts';
import { accountFollowers, statusMetrics } from '../mastodon/metrics.ts';
import { lookupSlackMs, SendLedger, sameText } from '../send-ledger.ts';
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
import type { PixelfedConfig } from './config.ts';
import { defaultPixelfedLimits } from './limits.ts';
import { pixelfedManifest } from './manifest.ts';
import { type PixelfedOptions, pixelfedCredentialsSchema, pixelfedOptionsSchema } from './options.ts';
import { validatePixelfedPost } from './validate.ts';

interface Status {
  id: string;
  url?: string | null;
  uri?: string;
  content?: string;
  content_text?: string;
  created_at?: string;
  in_reply_to_id?: string | null;
  media_attachments?: unknown[];
}

const name = pixelfedManifest.name;

/**
 * Publishes to a Pixelfed server through its Mastodon-compatible API (the Mastodon modules:
 * uploads with processing, limits from the instance, errors, metrics), with Pixelfed's rules:
 * media required, the caption counted as plain text, and no `Idempotency-Key` (Pixelfed refuses a
 * repeated one), so a resend looks the earlier status up instead.
 */
export class PixelfedPublisher implements Publisher<PixelfedOptions> {
  readonly id = pixelfedManifest.id;
  readonly displayName = name;
  readonly optionsSchema = pixelfedOptionsSchema;
  readonly credentialsSchema = pixelfedCredentialsSchema;
  readonly concurrency: number;
  readonly dedupe = 'lookup' as const;
  readonly #config: PixelfedConfig;
  readonly #limits: InstanceLimitsCache;
  readonly #ledger = new SendLedger();

  constructor(config: PixelfedConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
    this.#limits = new InstanceLimitsCache(config.instanceCacheTtlMs, {
      paths: ['/api/v1/instance'],
      defaults: defaultPixelfedLimits,
      platformName: name,
    });
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    _options: PixelfedOptions,
    context?: ValidationContext,
  ): Promise<ValidationOutcome> {
    const parsed = pixelfedCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      return {
        errors: [
          {
            code: 'credentials_invalid',
            message: 'Pixelfed credentials need instanceUrl and accessToken',
            path: 'credentials',
          },
        ],
        warnings: [],
      };
    }
    const origin = new URL(parsed.data.instanceUrl).origin;
    const { limits, fromInstance } = await this.#limits.get(origin, undefined, context?.accountHostFetch);
    const outcome = validatePixelfedPost(post, media, limits);
    if (!fromInstance) {
      outcome.warnings.push({
        code: 'instance_limits_unknown',
        message: "Could not read this Pixelfed server's limits; checked against Pixelfed's defaults",
      });
    }
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: PixelfedOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const api = this.#api(account, context.signal, context.accountHostFetch);
    const inReplyTo = context.replyTo?.parent.platformPostId;
    const earlier = this.#ledger.earlierSend(context);
    if (earlier) {
      const found = await findStatus(api, account, earlier, {
        text: post.message,
        media: media.length,
        inReplyTo,
      });
      if (found) return resultOf(found);
    }
    const mediaIds: string[] = [];
    for (const file of media) {
      mediaIds.push(
        await uploadMedia(api, file, file.altText, {
          timeoutMs: this.#config.mediaTimeoutMs,
          firstIntervalMs: this.#config.mediaPollIntervalMs,
          signal: context.signal,
        }),
      );
    }
    this.#ledger.sending(context);
    // No Idempotency-Key: Pixelfed refuses a key it has seen, so the ledger's lookup dedupes instead.
    const { body: status } = await api.request<Status>({
      method: 'POST',
      path: '/api/v1/statuses',
      operation: inReplyTo ? 'reply' : 'status',
      json: {
        status: post.message,
        ...(mediaIds.length > 0 ? { media_ids: mediaIds } : {}),
        ...(inReplyTo ? { in_reply_to_id: inReplyTo } : {}),
        ...(options.visibility ? { visibility: options.visibility } : {}),
        ...(options.spoilerText ? { spoiler_text: options.spoilerText } : {}),
        ...(options.sensitive !== undefined ? { sensitive: options.sensitive } : {}),
      },
    });
    if (!status.id) throw new PlatformError('platform_unavailable', 'Pixelfed answered without a status id');
    this.#ledger.done(context);
    return resultOf(status);
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    return verifiedProfile(this.#api(account, context?.signal, context?.accountHostFetch));
  }

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
    const parsed = pixelfedCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Pixelfed credentials need instanceUrl and accessToken');
    return new MastodonApi(
      new URL(parsed.data.instanceUrl).origin,
      parsed.data.accessToken,
      signal,
      fetch,
      name,
    );
  }
}

function resultOf(status: Status): PublishResult {
  return {
    platformPostId: status.id,
    ...(status.url || status.uri ? { url: (status.url ?? status.uri)! } : {}),
  };
}

/**
 * The account's status an earlier send created: among its latest (`GET /api/v1/accounts/:id/statuses`),
 * one made since that send with the same caption (Pixelfed's `content_text`, else the HTML
 * without tags), as many media and the same reply target.
 */
async function findStatus(
  api: MastodonApi,
  account: PlatformAccount,
  since: Date,
  wanted: { text: string; media: number; inReplyTo: string | undefined },
): Promise<Status | undefined> {
  const accountId = /^[A-Za-z0-9_-]{1,64}$/.test(account.platformAccountId)
    ? account.platformAccountId
    : (await verifiedAccount(api)).id;
  const { body } = await api.request<Status[]>({
    method: 'GET',
    path: `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=20`,
    operation: 'account',
  });
  if (!Array.isArray(body)) return undefined;
  const after = since.getTime() - lookupSlackMs;
  return body.find(
    (status) =>
      typeof status?.id === 'string' &&
      Date.parse(status.created_at ?? '') >= after &&
      sameText(status.content_text ?? plainText(status.content ?? ''), wanted.text) &&
      (status.media_attachments?.length ?? 0) === wanted.media &&
      (status.in_reply_to_id ?? undefined) === wanted.inReplyTo,
  );
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, e: string) => entities[e] ?? '');
}
