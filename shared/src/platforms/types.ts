import type { z } from 'zod';
import type { FetchLike } from '../http/fetch-like.ts';
import type { Logger } from '../logger.ts';
import type { MediaFile, MediaInfo } from '../media/media-file.ts';
import type { AccountEntry } from '../schemas/account.ts';
import type { ValidationIssue } from '../schemas/results.ts';
import type { PlatformManifest } from './manifest.ts';
import type { OAuthConnector } from './oauth-connector.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** An account with its credentials, as a publisher sees it. */
export type PlatformAccount = AccountEntry;

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
   * The fetch for hosts the account itself names (a Mastodon `instanceUrl`, a Bluesky `service`,
   * a later platform's instance or site URL). The Scheduler passes the SSRF-safe fetch, because its
   * users choose those hosts; the self-hosted server's accounts file is the operator's, so it
   * passes nothing and global fetch is used. Hosts from env (`<PLATFORM>_API_URL`) never use it.
   */
  accountHostFetch?: FetchLike;
}

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

  validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: Options,
    context?: ValidationContext,
  ): Promise<ValidationOutcome>;
  publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: Options,
    context: PublishContext,
  ): Promise<PublishResult>;
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
