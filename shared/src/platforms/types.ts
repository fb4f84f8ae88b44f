import type { z } from 'zod';
import type { FetchLike } from '../http/fetch-like.ts';
import type { Logger } from '../logger.ts';
import type { MediaFile, MediaInfo } from '../media/media-file.ts';
import type { AccountEntry } from '../schemas/account.ts';
import type { TargetDetails, ValidationIssue } from '../schemas/results.ts';
import type { AccountMetricName, OptionChoice, PlatformManifest, PostMetricName } from './manifest.ts';
import type { OAuthConnector } from './oauth-connector.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** An account with its credentials, as a publisher sees it. */
export type PlatformAccount = AccountEntry & {
  /**
   * The account's credentials as stored now, read again. The Scheduler sets it: several instances
   * share one database, and another one may have rotated a refresh token since these credentials
   * were read (a login's accounts share one grant). Without it, `credentials` is all there is.
   */
  currentCredentials?: (() => Promise<Record<string, unknown> | undefined>) | undefined;
};

/** The platform-neutral content of a post. */
export interface PostContent {
  message: string;
}

/** What validation may consult beyond the post itself; every field is optional. */
export interface ValidationContext {
  /** Resolves media from our own storage by public URL; null when the URL is not ours. */
  resolveOwnMedia?: (url: string) => Promise<MediaFile | null>;
  /** See `PublishContext.accountHostFetch`. */
  accountHostFetch?: FetchLike;
}

export interface ValidationOutcome {
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

export interface AccountProfile {
  name: string;
  username?: string;
  avatarUrl?: string;
  /** For platforms where the account id is discovered (e.g. a YouTube channel id). */
  platformAccountId?: string;
}

export interface PublishResult {
  platformPostId: string;
  url?: string;
  /**
   * What a later reply to this post needs beyond `platformPostId`, opaque to callers (Bluesky's
   * `{ uri, cid }` as JSON). Stored with the result so a retried thread continues from its last part.
   */
  replyRef?: string;
  /** What the platform reported beyond the id (Nostr: each relay's answer), shown in the target's result. */
  details?: TargetDetails;
}

/** Where a thread part or a first comment goes: the post it answers and the thread's first post. */
export interface ReplyTarget {
  parent: PublishResult;
  root: PublishResult;
}

export interface PublishContext {
  signal: AbortSignal;
  /** Stable for one post and target: platforms that support it use it to avoid duplicates. */
  idempotencyKey: string;
  logger: Logger;
  /**
   * Called when a publisher obtains new credentials (a refreshed OAuth token) so the caller
   * can store them. Publishing continues whether or not the caller stores them.
   */
  onCredentialsRefreshed?: (credentials: Record<string, unknown>) => void | Promise<void>;
  /** Resolves another media file from our own storage by public URL (YouTube thumbnails). */
  resolveOwnMedia?: (url: string) => Promise<MediaFile | null>;
  /**
   * The handle from `Publisher.dedupeHandle`, stored with the publish intent before the first
   * send; the publisher sends with it instead of choosing a new one (e.g. Bluesky's record key).
   */
  dedupeHandle?: string;
  /**
   * Set when an earlier run (perhaps a process that crashed) may already have sent this target
   * with the same key and handle: a `lookup` publisher looks for that post before sending.
   * `since` is when that earlier intent was recorded.
   */
  resumed?: { since: Date };
  /**
   * The fetch for hosts the account itself names (a Mastodon `instanceUrl`, a Bluesky `service`,
   * a later platform's instance or site URL). The Scheduler passes the SSRF-safe fetch, because its
   * users choose those hosts; the self-hosted server's accounts file is the operator's, so it
   * passes nothing and global fetch is used. Hosts from env (`<PLATFORM>_API_URL`) never use it.
   */
  accountHostFetch?: FetchLike;
  /**
   * The handle `Publisher.stage` returned for this target, while it is still valid: the
   * publisher makes only the final call with it. A handle it cannot use is ignored (a normal publish).
   */
  staged?: string;
  /**
   * Set for a thread part after the first, and for a first comment on a platform without comments:
   * the publisher posts this content as a reply to `parent` (root: the thread's first post).
   * Only platforms whose manifest sets `features.thread` receive it.
   */
  replyTo?: ReplyTarget;
}

/** Media uploaded to the platform ahead of the due time (`Publisher.stage`). */
export interface StagedMedia {
  /** The publisher's own record (media ids, container ids), opaque to callers and stored as is. */
  handle: string;
  /** When the platform forgets the upload: a publish after it must not pass the handle. */
  expiresAt: Date;
}

/** What `Publisher.discardStaged` may use of a publish's context. */
export type DiscardContext = Pick<
  PublishContext,
  'signal' | 'logger' | 'onCredentialsRefreshed' | 'accountHostFetch'
>;

/** What metric collection and option loading may use of a publish's context. */
export type PlatformCallContext = Pick<
  PublishContext,
  'signal' | 'logger' | 'onCredentialsRefreshed' | 'accountHostFetch'
>;

/** One posted target whose figures are asked for (`Publisher.metrics`). */
export interface MetricsTarget {
  platformPostId: string;
  url?: string;
}

/** A post's figures by canonical name; a metric the platform does not report is absent. */
export type MetricValues = Partial<Record<PostMetricName, number>>;

/** One target's answer: its figures, or `gone` when the remote post was deleted (collection stops). */
export type PostMetricsResult = { state: 'ok'; metrics: MetricValues } | { state: 'gone' };

/** At most `limit` publishes sharing `key` start in any `windowMs`. */
export interface PublishRateLimit {
  /** What shares the rate, one lower-case word (`bot`, `chat`, `webhook`): `PUBLISH_RATE_<PLATFORM>_<SCOPE>`. */
  scope: string;
  /** Who shares it: an opaque id, never a secret (a digest of a token, a webhook id). */
  key: string;
  limit: number;
  windowMs: number;
  /**
   * False for a documented rate that is not applied unless its variable sets it (its numbers
   * are then the documented values): where the platform's 429 is the better judge by default.
   */
  enabled?: boolean;
}

/**
 * What a publisher can do when a send's outcome was lost (a crash, a cut connection):
 * - `idempotent-resend`: sending again with the same key is safe, the platform answers the
 *   first post (Mastodon's `Idempotency-Key`);
 * - `lookup`: the publisher finds the post of the earlier attempt first (by a client-chosen
 *   handle, or the platform's duplicate refusal plus a search) and sends only when it is absent;
 * - `none`: nothing identifies the earlier send; the outcome is `unknown` until a person decides.
 */
export type DedupeCapability = 'idempotent-resend' | 'lookup' | 'none';

/**
 * One social platform. Implementations live in `platforms/<id>/` and are listed once in
 * `registry.ts`. Every method throws `PlatformError` for platform failures.
 */
export interface Publisher<Options = Record<string, unknown>> {
  readonly id: string;
  readonly displayName: string;
  /** Platform options (per post and account), also used for the OpenAPI document. */
  readonly optionsSchema: z.ZodType<Options>;
  /** What `credentials` must hold in an accounts-file entry. */
  readonly credentialsSchema: z.ZodType<Record<string, unknown>>;
  /** How many publishes may run against this platform at once, across all accounts. */
  readonly concurrency: number;
  /**
   * How many publishes may run at once with one credential (see `concurrencyKey`): platforms
   * rate-limit per bot, webhook or login rather than per platform.
   */
  readonly credentialConcurrency?: number;
  /**
   * Which credential an account publishes with, as an opaque id (a hash, never the secret itself);
   * accounts sharing it share `credentialConcurrency`. Undefined: only the platform limit applies.
   */
  concurrencyKey?(account: PlatformAccount): string | undefined;
  /**
   * The platform's documented rates that this account's publishes count against (Telegram: about
   * 30 messages a second per bot; 20 a minute per group, off unless configured), each replaceable, turned on or off with
   * `PUBLISH_RATE_<PLATFORM>_<SCOPE>`. A publish counts once, whatever number of calls it makes;
   * the platform's 429 and its retry-after remain the safety net.
   */
  rateLimits?(account: PlatformAccount): readonly PublishRateLimit[];
  /** How a lost send is completed without posting twice; undefined means `none`. */
  readonly dedupe?: DedupeCapability;
  /**
   * A handle for the platform to dedupe or look up on, chosen before the first send so it can be
   * stored with the publish intent (a Bluesky record key). Undefined: the idempotency key serves.
   */
  dedupeHandle?(idempotencyKey: string): string;

  validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: Options,
    context?: ValidationContext,
  ): Promise<ValidationOutcome>;
  /**
   * Optional: uploads a scheduled post's media ahead of the due time where the platform lets an
   * upload be published later (X media ids live 24 h), so only the final call happens on time.
   * Failing here never blocks the due-time publish, which then uploads as usual.
   */
  stage?(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: Options,
    context: PublishContext,
  ): Promise<StagedMedia>;
  /**
   * Optional: removes a staged upload that will not be published (the post was edited, deleted,
   * moved back to draft, or its staging dropped), on platforms that keep such an upload
   * indefinitely: a private YouTube video, an unpublished Facebook video. Platforms whose staged
   * uploads expire by themselves (X media ids, Threads and Instagram containers) leave it out, as
   * do those that document no way to remove one (LinkedIn assets). An upload already gone
   * resolves: discarding is idempotent. A handle that is not the publisher's own is ignored.
   */
  discardStaged?(handle: string, account: PlatformAccount, context: DiscardContext): Promise<void>;
  publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: Options,
    context: PublishContext,
  ): Promise<PublishResult>;
  /**
   * Posts `text` as a comment under a published post, for platforms whose comments are not posts
   * (Instagram, Facebook, LinkedIn, YouTube). Platforms without it whose manifest sets
   * `features.firstComment` get the first comment as a reply (`publish` with `context.replyTo`).
   */
  comment?(
    parent: PublishResult,
    text: string,
    account: PlatformAccount,
    options: Options,
    context: PublishContext,
  ): Promise<PublishResult>;
  /**
   * Optional: the choices of an option field whose manifest entry has `choicesFrom` (boards,
   * flairs, privacy levels), for one account. `values` holds the other fields' current values
   * (the `dependsOn` field among them). Validation calls it too, to refuse a value not offered.
   */
  optionChoices?(
    account: PlatformAccount,
    field: string,
    values: Readonly<Record<string, string>>,
    context: PlatformCallContext,
  ): Promise<OptionChoice[]>;
  /**
   * Optional (post analytics): the current figures of posted targets, keyed by
   * `platformPostId`; at most `metricsBatchSize` targets per call. A target missing from the
   * answer was not reported this time; `gone` means the remote post no longer exists.
   */
  metrics?(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>>;
  /** How many targets one `metrics` call takes (X: 100 ids); default 1. */
  readonly metricsBatchSize?: number;
  /** Optional: the account's own figures (followers), as the manifest's `analytics.account` lists. */
  accountMetrics?(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>>;
  verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile>;
}

/** A publisher of any platform, as registries and the posting service hold them. */
// biome-ignore lint/suspicious/noExplicitAny: options are parsed by each publisher's own schema before use
export type AnyPublisher = Publisher<any>;

/**
 * A platform folder's entry point (`<id>/index.ts`), listed once in `registry.ts`: reads its
 * settings from the environment once, then builds a publisher (and, for OAuth platforms, a
 * connector). Nothing outside the folder names the platform.
 */
export interface PlatformModule {
  readonly id: string;
  /** Browser-safe description (name, icon, counting, options, connect method); also in `manifests.ts`. */
  readonly manifest: PlatformManifest;
  create(env: Env): AnyPublisher;
  /** OAuth platforms only: the consent URL, code exchange and account listing. */
  createConnector?(env: Env): OAuthConnector;
}
